#include "engines/explore/sync_objects.h"

#include <new>

#include "core/internal_alloc.h"

namespace snag::explore {

namespace {

constexpr uint32_t kBuckets = 1u << 14;
SyncObject *g_buckets[kBuckets];

// By the 64-byte line the object is on, not by a hash: objects that are
// near each other (a program's globals, consecutive allocations) share a
// page of the table, and a forked schedule that creates a few of them
// page-faults on one page of it rather than on one page each.
uint32_t bucket(uintptr_t address) { return static_cast<uint32_t>(address / 64) & (kBuckets - 1); }

}  // namespace

SyncObject *find_sync_object(uintptr_t address) {
  for (SyncObject *o = g_buckets[bucket(address)]; o; o = o->next)
    if (o->address == address) return o;
  return nullptr;
}

SyncObject &sync_object(uintptr_t address) {
  if (SyncObject *o = find_sync_object(address)) return *o;
  auto *o = new (internal_alloc(sizeof(SyncObject))) SyncObject();
  o->address = address;
  SyncObject *&head = g_buckets[bucket(address)];
  o->next = head;
  head = o;
  return *o;
}

}  // namespace snag::explore
