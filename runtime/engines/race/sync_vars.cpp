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

// One bit per bucket, set while the bucket holds a variable (changed under
// the bucket's lock). Most atomics live at addresses with no variable (a
// relaxed store or load of a node's field), and their lookup used to miss
// in the bucket array; these 2 KiB stay in the cache.
std::atomic<uint64_t> g_bucket_used[kBuckets / 64];

uint32_t bucket_index(uintptr_t addr) {
  uint64_t g = addr / kGranule;
  return static_cast<uint32_t>((g * 0x9e3779b97f4a7c15ull) >> (64 - kBucketBits));
}

Bucket &bucket_of(uintptr_t addr) { return g_buckets[bucket_index(addr)]; }

bool bucket_may_hold(uint32_t index) {
  return (g_bucket_used[index / 64].load(std::memory_order_acquire) >> (index % 64)) & 1;
}

void mark_bucket(uint32_t index, bool used) {
  uint64_t bit = uint64_t(1) << (index % 64);
  if (used) g_bucket_used[index / 64].fetch_or(bit, std::memory_order_release);
  else g_bucket_used[index / 64].fetch_and(~bit, std::memory_order_release);
}

// The variables this thread found last, direct-mapped by address. A queue's
// cell is looked up by the acquire load that checks it and again by the
// release store that hands it on, a read-modify-write by both of its hooks;
// each table lookup missed in the cache twice (the bucket, then the
// variable). Entries are checked against the variable's address, and one
// whose memory was freed (forgotten) is looked up again.
constexpr uint32_t kRecent = 8;
SNAG_TLS SyncVar *t_recent[kRecent];

SyncVar *&recent_slot(uintptr_t addr) {
  return t_recent[((addr / kGranule) * 0x9e3779b97f4a7c15ull) >> 61];
}

// Called under v->lock after its clock changed.
void bump_version(SyncVar *v) {
  v->version.store(v->version.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

void count_in_page(uintptr_t addr, int delta) {
  if (ShadowPage *page = delta > 0 ? shadow_page(addr) : find_shadow_page(addr))
    page->sync_objects.fetch_add(static_cast<uint32_t>(delta), std::memory_order_relaxed);
}

}  // namespace

SyncVar *sync_var(uintptr_t addr, bool create) {
  SyncVar *&recent = recent_slot(addr);
  if (SyncVar *v = recent; v && v->addr == addr && !v->forgotten.load(std::memory_order_acquire))
    return v;
  const uint32_t index = bucket_index(addr);
  if (!create && !bucket_may_hold(index)) return nullptr;
  Bucket &b = g_buckets[index];
  for (SyncVar *v = b.head.load(std::memory_order_acquire); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return recent = v;
  if (!create) return nullptr;
  SpinLockGuard guard(b.lock);
  for (SyncVar *v = b.head.load(std::memory_order_acquire); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return recent = v;
  auto *v = new (internal_alloc(sizeof(SyncVar))) SyncVar();
  recent = v;
  v->addr = addr;
  v->next.store(b.head.load(std::memory_order_relaxed), std::memory_order_relaxed);
  mark_bucket(index, true);
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
  bump_version(v);
  SNAG_DEBUG_ASSERT(published.covers(from), "a release publishes all the releaser saw");
}

namespace {

// sync_store's work; returns the variable (null when there was none to
// clear) and, in *version, the version the store made.
SyncVar *store_clock(uintptr_t addr, const VectorClock *from, uint32_t *version) {
  SyncVar *v = sync_var(addr, from != nullptr);
  if (!v) return nullptr;
  SpinLockGuard guard(v->lock);
  if (from) v->clock.assign(*from);
  else v->clock.assign(VectorClock());
  bump_version(v);
  *version = v->version.load(std::memory_order_relaxed);
  return v;
}

}  // namespace

void sync_store(uintptr_t addr, const VectorClock *from) {
  uint32_t version;
  store_clock(addr, from, &version);
}

void sync_store_atomic(uintptr_t addr, const VectorClock *from, AcquireCache &seen) {
  uint32_t version;
  // What the variable publishes now is `from` (or nothing), which the
  // storing thread's clock covers: its own later acquire there takes nothing.
  if (SyncVar *v = store_clock(addr, from, &version)) seen.note(v, version, true);
}

void sync_acquire_atomic(uintptr_t addr, VectorClock &into, bool into_clock, AcquireCache &seen) {
  SyncVar *v = sync_var(addr, false);
  if (!v) return;
  if (seen.has(v, v->version.load(std::memory_order_acquire), into_clock)) return;
  SpinLockGuard guard(v->lock);
  into.merge(v->clock);
  // Read under the lock: the version of the clock just merged.
  seen.note(v, v->version.load(std::memory_order_relaxed), into_clock);
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
    if (!b.head.load(std::memory_order_relaxed)) mark_bucket(bucket_index(g), false);
  }
}

}  // namespace snag::race
