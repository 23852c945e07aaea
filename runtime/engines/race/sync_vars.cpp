#include "engines/race/sync_vars.h"

#include <atomic>
#include <new>

#include "core/debug_assert.h"
#include "core/internal_alloc.h"
#include "engines/race/shadow.h"

namespace snag::race {

namespace {

// Buckets are chosen by granule, so the variables of a freed range are found
// by probing its granules. Chains are read without a lock; inserts and
// removals take the bucket's lock. Removed nodes are kept (never unmapped),
// so a reader that still holds one reads stale but valid memory.
//
// The table is a fixed cost every program pays as soon as it has a few
// hundred locks or atomics (each lands on its own page of the table): 16,384
// buckets are 256 KiB. At 65,536 (1 MiB) the table alone was over a quarter
// of what task_graph used beyond its own 3.5 MB.
constexpr int kBucketBits = 14;
constexpr uint32_t kBuckets = 1u << kBucketBits;

struct Bucket {
  SpinLock lock;
  std::atomic<SyncVar *> head;
};
Bucket g_buckets[kBuckets];

Bucket &bucket_of(uintptr_t addr) {
  uint64_t g = addr / kGranule;
  return g_buckets[(g * 0x9e3779b97f4a7c15ull) >> (64 - kBucketBits)];
}

void count_in_page(uintptr_t addr, int delta) {
  if (ShadowPage *page = delta > 0 ? shadow_page(addr) : find_shadow_page(addr))
    page->sync_objects.fetch_add(static_cast<uint32_t>(delta), std::memory_order_relaxed);
}

}  // namespace

SyncVar *sync_var(uintptr_t addr, bool create) {
  Bucket &b = bucket_of(addr);
  for (SyncVar *v = b.head.load(std::memory_order_acquire); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return v;
  if (!create) return nullptr;
  SpinLockGuard guard(b.lock);
  for (SyncVar *v = b.head.load(std::memory_order_acquire); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return v;
  auto *v = new (internal_alloc(sizeof(SyncVar))) SyncVar();
  v->addr = addr;
  v->next.store(b.head.load(std::memory_order_relaxed), std::memory_order_relaxed);
  b.head.store(v, std::memory_order_release);
  count_in_page(addr, +1);
  return v;
}

LocksetId sync_lockset_alone(SyncVar *v) {
  LocksetId id = v->alone.load(std::memory_order_relaxed);
  if (id == kEmptyLockset) {
    id = lockset_intern(&v->addr, 1);
    v->alone.store(id, std::memory_order_relaxed);
  }
  return id;
}

void sync_release(uintptr_t addr, const VectorClock &from, bool reader) {
  sync_release_var(sync_var(addr, true), from, reader);
}

void sync_release_var(SyncVar *v, const VectorClock &from, bool reader) {
  SpinLockGuard guard(v->lock);
  VectorClock &published = reader ? v->read_clock : v->clock;
  published.merge(from);
  SNAG_DEBUG_ASSERT(published.covers(from), "a release publishes all the releaser saw");
}

void sync_store(uintptr_t addr, const VectorClock *from) {
  SyncVar *v = sync_var(addr, from != nullptr);
  if (!v) return;
  SpinLockGuard guard(v->lock);
  if (from) v->clock.assign(*from);
  else v->clock.assign(VectorClock());
}

void sync_acquire(uintptr_t addr, VectorClock &into, bool readers) {
  if (SyncVar *v = sync_var(addr, false)) sync_acquire_var(v, into, readers);
}

void sync_acquire_var(SyncVar *v, VectorClock &into, bool readers) {
  SpinLockGuard guard(v->lock);
  into.merge(v->clock);
  if (readers) into.merge(v->read_clock);
  SNAG_DEBUG_ASSERT(into.covers(v->clock) && (!readers || into.covers(v->read_clock)),
                    "an acquire takes everything released at the address");
}

void sync_forget_range(uintptr_t begin, uintptr_t end) {
  // Probe granule by granule, skipping pages that hold no variables.
  for (uintptr_t g = begin & ~(kGranule - 1); g < end; g += kGranule) {
    ShadowPage *page = find_shadow_page(g);
    if (!page || page->sync_objects.load(std::memory_order_relaxed) == 0) {
      g = (g & ~(kPageSize - 1)) + kPageSize - kGranule;  // on to the next page
      continue;
    }
    Bucket &b = bucket_of(g);
    if (!b.head.load(std::memory_order_acquire)) continue;
    SpinLockGuard guard(b.lock);
    std::atomic<SyncVar *> *link = &b.head;
    for (SyncVar *v = link->load(std::memory_order_relaxed); v;) {
      SyncVar *next = v->next.load(std::memory_order_relaxed);
      if (v->addr >= begin && v->addr < end) {
        link->store(next, std::memory_order_release);
        v->forgotten.store(true, std::memory_order_release);
        count_in_page(v->addr, -1);
        // Not freed: a lock-free reader may still be looking at it.
      } else {
        link = &v->next;
      }
      v = next;
    }
  }
}

}  // namespace snag::race
