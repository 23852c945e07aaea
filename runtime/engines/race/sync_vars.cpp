#include "engines/race/sync_vars.h"

#include <atomic>
#include <new>

#include "core/debug_assert.h"
#include "core/internal_alloc.h"
#include "core/prefetch.h"
#include "engines/race/line_buckets.h"
#include "engines/race/shadow.h"

namespace snag::race {

namespace {

// Buckets are chosen by 64-byte line, so the variables of a freed range are
// found by probing its lines. Chains are read without a lock; inserts and
// removals take the bucket's lock. Removed variables are never unmapped, so
// a reader that still holds one reads stale but valid memory; they are used
// again for other addresses only after a quarantine (below).
//
// The table's 16,384 buckets are 256 KiB (at 65,536, 1 MiB, the table alone
// was over a quarter of what task_graph used beyond its own 3.5 MB), and
// only its pages that hold a used bucket cost memory: the bucket keeps the
// program's locality (line_buckets.h), so an array of 4,096 objects with a
// lock each uses 4,096 adjacent buckets, 16 pages. The variables of one
// line share a bucket: a chain is a handful at most.
constexpr int kBucketBits = 14;
constexpr uint32_t kBuckets = 1u << kBucketBits;
static_assert(kBuckets == kSyncBuckets, "sync_vars.h names the table's size");

struct Bucket {
  SpinLock lock;
  // Bumped (under `lock`) at each removal. A reader that walked the chain
  // without the lock and found nothing checks it: a variable removed from
  // this chain and used again elsewhere could have led it off the chain.
  std::atomic<uint32_t> removals;
  std::atomic<SyncVar *> head;
};
static_assert(sizeof(Bucket) == kSyncBucketBytes, "sync_vars.h names a bucket's size");
Bucket g_buckets[kBuckets];

// One bit per bucket, set while the bucket holds a variable (changed under
// the bucket's lock). Most atomics live at addresses with no variable (a
// relaxed store or load of a node's field), and their lookup used to miss
// in the bucket array; these 2 KiB stay in the cache.
std::atomic<uint64_t> g_bucket_used[kBuckets / 64];

}  // namespace

uint32_t sync_bucket_index(uintptr_t addr) { return line_bucket<kBucketBits>(addr); }

namespace {

Bucket &bucket_of(uintptr_t addr) { return g_buckets[sync_bucket_index(addr)]; }

bool bucket_may_hold(uint32_t index) {
  return (g_bucket_used[index / 64].load(std::memory_order_acquire) >> (index % 64)) & 1;
}

void mark_bucket(uint32_t index, bool used) {
  uint64_t bit = uint64_t(1) << (index % 64);
  if (used) g_bucket_used[index / 64].fetch_or(bit, std::memory_order_release);
  else g_bucket_used[index / 64].fetch_and(~bit, std::memory_order_release);
}

// Clears the bit of bucket `index`, found empty by a lookup. Removals
// leave the bit set: an object holding a mutex, freed, and another made at
// the address malloc hands out again, set and cleared it each time, an
// atomic read-modify-write of a line every thread that makes locks writes.
// Cleared here (under the bucket's lock, as it is set), once, by a lookup
// that would otherwise find the bucket empty again and again. Only tried:
// the bit is a filter, a later lookup clears it as well, and a lookup must
// not wait for the bucket's lock (a signal handler's lookup while the
// thread it interrupted holds that lock would wait forever).
void unmark_empty_bucket(uint32_t index) {
  Bucket &b = g_buckets[index];
  if (!b.lock.try_lock()) return;
  if (!b.head.load(std::memory_order_relaxed)) mark_bucket(index, false);
  b.lock.unlock();
}

// The variables this thread found last, direct-mapped by address. A queue's
// cell is looked up by the acquire load that checks it and again by the
// release store that hands it on, a read-modify-write by both of its hooks;
// each table lookup missed in the cache twice (the bucket, then the
// variable). Each entry keeps the address it holds, so that a miss costs
// no load of another variable's line; one whose memory was freed
// (forgotten) is looked up again.
struct RecentVar {
  uintptr_t addr;
  SyncVar *var;
};
constexpr int kRecentBits = 6;  // 64 entries, 1 KiB per thread
SNAG_TLS RecentVar t_recent[1u << kRecentBits];

RecentVar &recent_slot(uintptr_t addr) {
  return t_recent[((addr / kGranule) * 0x9e3779b97f4a7c15ull) >> (64 - kRecentBits)];
}

// Takes v->lock with an exchange first: SpinLock::lock reads the lock
// before it exchanges, which for a variable another core used last is a
// shared transfer and then an upgrade of the same line.
class VarLockGuard {
 public:
  explicit VarLockGuard(SyncVar *v) : lock_(v->lock) {
    if (!lock_.try_lock()) lock_.lock();
  }
  ~VarLockGuard() { lock_.unlock(); }
  VarLockGuard(const VarLockGuard &) = delete;
  VarLockGuard &operator=(const VarLockGuard &) = delete;

 private:
  SpinLock &lock_;
};

// Called under v->lock after its clock changed.
void bump_version(SyncVar *v) {
  v->version.store(v->version.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

// Variables are carved from page-aligned runs, 64-byte aligned (the runtime's
// allocator aligns to 16: two variables shared lines, and a lock's
// acquire and release paid for cache lines another lock's users wrote).
// They are never unmapped (a reader may still hold one).
constexpr size_t kVarsPerRun = 512;  // 64 KiB
SpinLock g_carve_lock;
SyncVar *g_carve_next;
SyncVar *g_carve_end;
size_t g_carved;  // under g_carve_lock

// A variable whose memory was freed is used again, so that a program that
// makes and frees objects holding mutexes keeps a table proportional to the
// mutexes alive, not to all it ever made. It first waits in this FIFO while
// kQuarantine others are freed after it: a thread that found it just before
// it was forgotten (a lookup between its bucket's head and its address, a
// remembered pointer) has long finished with it when it is used again.
// After the quarantine it joins a free list linked through `next`.
constexpr size_t kQuarantine = 1024;
SyncVar *g_quarantine[kQuarantine];  // under g_carve_lock
size_t g_quarantined;                // how many were ever put there
SyncVar *g_free;                     // under g_carve_lock

void quarantine(SyncVar *v) {
  SpinLockGuard guard(g_carve_lock);
  SyncVar *&slot = g_quarantine[g_quarantined++ % kQuarantine];
  if (SyncVar *released = slot) {
    released->next.store(g_free, std::memory_order_relaxed);
    g_free = released;
  }
  slot = v;
}

// Takes the variable's lock: a thread still holding the old one (a lock
// freed while held, which the program should not do) finishes its update
// before the variable starts afresh. Its version goes on counting, so that
// no thread's AcquireCache entry for the old variable matches the new one.
void reuse(SyncVar *v, uintptr_t addr) {
  VarLockGuard guard(v);
  v->addr = addr;
  v->readers_released.store(false, std::memory_order_relaxed);
  v->clock.assign(VectorClock());
  v->read_clock.assign(VectorClock());
  v->alone.store(kEmptyLockset, std::memory_order_relaxed);
  bump_version(v);
  v->forgotten.store(false, std::memory_order_release);
}

SyncVar *new_sync_var(uintptr_t addr) {
  SyncVar *memory;
  {
    SpinLockGuard guard(g_carve_lock);
    if (g_free) {
      memory = g_free;
      g_free = memory->next.load(std::memory_order_relaxed);
    } else {
      if (g_carve_next == g_carve_end) {
        g_carve_next = static_cast<SyncVar *>(map_pages(sizeof(SyncVar) * kVarsPerRun));
        g_carve_end = g_carve_next + kVarsPerRun;
      }
      memory = g_carve_next++;
      ++g_carved;
      auto *v = new (memory) SyncVar();
      v->addr = addr;
      return v;
    }
  }
  reuse(memory, addr);
  return memory;
}

SyncVar *remember(RecentVar &recent, SyncVar *v) {
  recent = {v->addr, v};
  return v;
}

void count_in_page(uintptr_t addr, int delta) {
  if (ShadowPage *page = delta > 0 ? shadow_page(addr) : find_shadow_page(addr))
    page->sync_objects.fetch_add(static_cast<uint32_t>(delta), std::memory_order_relaxed);
}

}  // namespace

SyncVar *sync_var(uintptr_t addr, bool create, AcquireCache *made) {
  RecentVar &recent = recent_slot(addr);
  if (recent.addr == addr && recent.var) {
    // A variable made or found with `create` is written next (a lock, an
    // unlock, a release): fetched for writing, its line moves once.
    if (create) prefetch_for_write(recent.var);
    // Forgotten, or forgotten and used again for another address.
    if (!recent.var->forgotten.load(std::memory_order_acquire) && recent.var->addr == addr)
      return recent.var;
  }
  const uint32_t index = sync_bucket_index(addr);
  if (!create && !bucket_may_hold(index)) return nullptr;
  Bucket &b = g_buckets[index];
  const uint32_t removals = b.removals.load(std::memory_order_acquire);
  SyncVar *const head = b.head.load(std::memory_order_acquire);
  for (SyncVar *v = head; v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return remember(recent, v);
  // Not found: certainly so unless a removal could have led the walk astray.
  if (!create && b.removals.load(std::memory_order_acquire) == removals) {
    if (!head) unmark_empty_bucket(index);
    return nullptr;
  }
  SpinLockGuard guard(b.lock);
  for (SyncVar *v = b.head.load(std::memory_order_acquire); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return remember(recent, v);
  if (!create) return nullptr;
  SyncVar *v = new_sync_var(addr);
  // Read before the variable is published: nobody released here yet.
  if (made) made->note(v, v->version.load(std::memory_order_relaxed), true);
  v->next.store(b.head.load(std::memory_order_relaxed), std::memory_order_relaxed);
  if (!bucket_may_hold(index)) mark_bucket(index, true);
  b.head.store(v, std::memory_order_release);
  count_in_page(addr, +1);
  return remember(recent, v);
}

void sync_var_prefetch(uintptr_t addr) {
  const RecentVar &recent = recent_slot(addr);
  SyncVar *v = recent.addr == addr ? recent.var : nullptr;
  // Most chains hold one variable: the head is the one, without reading it.
  if (!v) v = g_buckets[sync_bucket_index(addr)].head.load(std::memory_order_acquire);
  if (!v) return;
  prefetch_for_write(v);
  // The second line (the one-lock lockset, read_clock) is read, not written.
  __builtin_prefetch(reinterpret_cast<const char *>(v) + 64, 0, 3);
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
  VarLockGuard guard(v);
  VectorClock &published = reader ? v->read_clock : v->clock;
  published.merge(from);
  if (reader) v->readers_released.store(true, std::memory_order_relaxed);
  bump_version(v);
  SNAG_DEBUG_ASSERT(published.covers(from), "a release publishes all the releaser saw");
}

namespace {

// sync_store's work; returns the variable (null when there was none to
// clear) and, in *version, the version the store made.
SyncVar *store_clock(uintptr_t addr, const VectorClock *from, uint32_t *version) {
  SyncVar *v = sync_var(addr, from != nullptr);
  if (!v) return nullptr;
  VarLockGuard guard(v);
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
  VarLockGuard guard(v);
  into.merge(v->clock);
  // Read under the lock: the version of the clock just merged.
  seen.note(v, v->version.load(std::memory_order_relaxed), into_clock);
}

void sync_acquire(uintptr_t addr, VectorClock &into, bool readers) {
  if (SyncVar *v = sync_var(addr, false)) sync_acquire_var(v, into, readers);
}

void sync_acquire_var(SyncVar *v, VectorClock &into, bool readers) {
  VarLockGuard guard(v);
  into.merge(v->clock);
  if (readers && v->readers_released.load(std::memory_order_relaxed)) into.merge(v->read_clock);
  SNAG_DEBUG_ASSERT(into.covers(v->clock) && (!readers || into.covers(v->read_clock)),
                    "an acquire takes everything released at the address");
}

uint32_t sync_acquire_lock(SyncVar *v, VectorClock &into, bool write_mode, AcquireCache &seen) {
  const uint32_t version = v->version.load(std::memory_order_acquire);
  // A writer also takes what readers released, which `seen` does not vouch for.
  if (seen.has(v, version, true) &&
      !(write_mode && v->readers_released.load(std::memory_order_relaxed)))
    return version;
  VarLockGuard guard(v);
  into.merge(v->clock);
  if (write_mode && v->readers_released.load(std::memory_order_relaxed)) into.merge(v->read_clock);
  return v->version.load(std::memory_order_relaxed);
}

void sync_release_lock(SyncVar *v, const VectorClock &from, bool write_mode, uint32_t acquired,
                       AcquireCache &seen) {
  VarLockGuard guard(v);
  // Unchanged since this thread's acquire, which took all of it (a writer
  // takes both clocks): `from` covers both, before and after the merge.
  const bool covered = write_mode && v->version.load(std::memory_order_relaxed) == acquired;
  VectorClock &published = write_mode ? v->clock : v->read_clock;
  published.merge(from);
  if (!write_mode) v->readers_released.store(true, std::memory_order_relaxed);
  bump_version(v);
  if (covered) seen.note(v, v->version.load(std::memory_order_relaxed), true);
  SNAG_DEBUG_ASSERT(!covered || (from.covers(v->clock) && from.covers(v->read_clock)),
                    "a release noted as seen publishes nothing the releaser lacks");
}

size_t sync_vars_carved() {
  SpinLockGuard guard(g_carve_lock);
  return g_carved;
}

void sync_forget_range(uintptr_t begin, uintptr_t end) {
  // Line by line, on the pages that hold variables.
  constexpr uintptr_t kLine = uintptr_t(1) << kBucketLineBits;
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t page_start, uint32_t, uint32_t) {
    if (page->sync_objects.load(std::memory_order_relaxed) == 0) return;
    const uintptr_t first = (begin > page_start ? begin : page_start) & ~(kLine - 1);
    const uintptr_t last = end < page_start + kPageSize ? end : page_start + kPageSize;
    for (uintptr_t g = first; g < last; g += kLine) {
      Bucket &b = bucket_of(g);
      if (!b.head.load(std::memory_order_acquire)) continue;
      SpinLockGuard guard(b.lock);
      std::atomic<SyncVar *> *link = &b.head;
      for (SyncVar *v = link->load(std::memory_order_relaxed); v;) {
        SyncVar *next = v->next.load(std::memory_order_relaxed);
        if (v->addr >= begin && v->addr < end) {
          link->store(next, std::memory_order_release);
          b.removals.store(b.removals.load(std::memory_order_relaxed) + 1, std::memory_order_release);
          v->forgotten.store(true, std::memory_order_release);
          count_in_page(v->addr, -1);
          quarantine(v);  // a lock-free reader may still be looking at it
        } else {
          link = &v->next;
        }
        v = next;
      }
      // An emptied bucket keeps its bit (unmark_empty_bucket).
    }
  });
}

}  // namespace snag::race
