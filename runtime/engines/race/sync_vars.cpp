#include "engines/race/sync_vars.h"

#include <atomic>
#include <new>

#include "core/debug_assert.h"
#include "core/internal_alloc.h"
#include "core/prefetch.h"
#include "core/quarantine.h"
#include "engines/race/line_buckets.h"
#include "engines/race/shadow.h"

namespace snag::race {

void SyncClock::grow(uint32_t size) {
  if (size <= size_) return;
  if (size <= kInline) {
    size_ = size;  // the inline entries beyond the old size are 0
    return;
  }
  // The capacity an array of `n` entries has: the power of two at or above n.
  auto capacity = [](uint32_t n) {
    uint32_t c = 2 * kInline;
    while (c < n) c *= 2;
    return c;
  };
  if (size_ > kInline && capacity(size_) >= size) {
    size_ = size;  // the array's entries beyond the old size are 0
    return;
  }
  auto *fresh = internal_new_array<Clock>(capacity(size));
  const Clock *old = values();
  copy_bytes(fresh, old, sizeof(Clock) * size_);
  if (size_ > kInline) internal_free(const_cast<Clock *>(old));
  __builtin_memset(words_, 0, sizeof words_);
  __builtin_memcpy(words_, &fresh, sizeof fresh);
  size_ = size;
}

void SyncClock::merge(const VectorClock &from) {
  const uint32_t n = from.size();
  if (n > size_) grow(n);
  Clock *v = values();
  const Clock *f = from.data();
  for (uint32_t i = 0; i < n; ++i)
    if (f[i] > v[i]) v[i] = f[i];
}

void SyncClock::assign(const VectorClock &from) {
  const uint32_t n = from.size();
  if (n > size_) grow(n);
  Clock *v = values();
  copy_bytes(v, from.data(), sizeof(Clock) * n);
  for (uint32_t i = n; i < size_; ++i) v[i] = 0;
}

void SyncClock::clear() {
  __builtin_memset(values(), 0, sizeof(Clock) * size_);
}

void SyncClock::merge_into(VectorClock &into) const { into.merge(values(), size_); }

bool SyncClock::covers(const VectorClock &other) const {
  for (uint32_t i = 0; i < other.size(); ++i)
    if (other.get(i) > get(i)) return false;
  return true;
}

bool SyncClock::covered_by(const VectorClock &clock) const {
  for (uint32_t i = 0; i < size_; ++i)
    if (get(i) > clock.get(i)) return false;
  return true;
}

namespace {

// The clocks readers of reader-writer locks released, by variable: only
// such locks need one, so a variable keeps none of its own (64 bytes, not
// 128). A chained table; an entry is looked up under its variable's lock
// (so it cannot come or go meanwhile) without the table's lock, which only
// inserts and removals take. Entries are never given back to the runtime
// allocator, only linked again for another variable, so a lookup walking
// past one being removed reads valid memory; a lookup that missed while a
// removal happened walks again under the table's lock.
struct ReadClockEntry {
  const SyncVar *var;
  std::atomic<ReadClockEntry *> next;
  VectorClock clock;
};
constexpr uint32_t kReadClockBuckets = 256;
SpinLock g_read_clocks_lock;
std::atomic<ReadClockEntry *> g_read_clocks[kReadClockBuckets];
std::atomic<uint32_t> g_read_clock_removals;
ReadClockEntry *g_free_read_clocks;  // under g_read_clocks_lock, linked through `next`

std::atomic<ReadClockEntry *> &read_clock_bucket(const SyncVar *v) {
  return g_read_clocks[(reinterpret_cast<uintptr_t>(v) * 0x9e3779b97f4a7c15ull) >> 56];
}

VectorClock *walk_read_clocks(const SyncVar *v) {
  for (ReadClockEntry *e = read_clock_bucket(v).load(std::memory_order_acquire); e;
       e = e->next.load(std::memory_order_acquire))
    if (e->var == v) return &e->clock;
  return nullptr;
}

VectorClock *find_read_clock(const SyncVar *v) {
  const uint32_t removals = g_read_clock_removals.load(std::memory_order_acquire);
  if (VectorClock *c = walk_read_clocks(v)) return c;
  if (g_read_clock_removals.load(std::memory_order_acquire) == removals) return nullptr;
  SpinLockGuard guard(g_read_clocks_lock);
  return walk_read_clocks(v);
}

// Under v->lock.
VectorClock &read_clock_of(const SyncVar *v) {
  if (VectorClock *c = find_read_clock(v)) return *c;
  SpinLockGuard guard(g_read_clocks_lock);
  ReadClockEntry *e = g_free_read_clocks;
  if (e) {
    g_free_read_clocks = e->next.load(std::memory_order_relaxed);
    e->clock.assign(VectorClock());
  } else {
    e = new (internal_alloc(sizeof(ReadClockEntry))) ReadClockEntry{};
  }
  e->var = v;
  std::atomic<ReadClockEntry *> &head = read_clock_bucket(v);
  e->next.store(head.load(std::memory_order_relaxed), std::memory_order_relaxed);
  head.store(e, std::memory_order_release);
  return e->clock;
}

// Under v->lock.
void drop_read_clock(const SyncVar *v) {
  SpinLockGuard guard(g_read_clocks_lock);
  std::atomic<ReadClockEntry *> *link = &read_clock_bucket(v);
  for (ReadClockEntry *e = link->load(std::memory_order_relaxed); e; e = e->next.load(std::memory_order_relaxed)) {
    if (e->var != v) {
      link = &e->next;
      continue;
    }
    link->store(e->next.load(std::memory_order_relaxed), std::memory_order_release);
    g_read_clock_removals.fetch_add(1, std::memory_order_acq_rel);
    // Named by no variable while free: v may come back (used again for
    // another address) and must not find it.
    e->var = nullptr;
    e->next.store(g_free_read_clocks, std::memory_order_release);
    g_free_read_clocks = e;
    return;
  }
}

}  // namespace

const VectorClock *sync_read_clock(const SyncVar *v) {
  return v->readers_released.load(std::memory_order_relaxed) ? find_read_clock(v) : nullptr;
}

namespace {

// A page's variables, by 16-byte span: a lookup walks its own span's
// variables only (two 8-byte atomics at most). The page's shadow record
// points at them from the first variable made on the page on; they are
// never unmapped. Chains are read without a lock; inserts and removals
// take the page's lock. Removed variables are never unmapped either, so a
// reader that still holds one reads stale but valid memory; they are used
// again for other addresses only after a quarantine (below).
//
// The heads used to be the buckets of one table of 16,384, chosen by line:
// with two million atomics alive (a thread pool's test of a parallel loop)
// a chain held 128 variables and lookups took over half of the run. Then
// they were one per 64-byte line: an array of 8-byte atomics still had
// eight per chain, and each variable walked past is a cache miss (its
// address is in its first line; with two million alive none stays cached),
// 8% of that test's run. 16 bytes keeps the heads at 2 KiB per page that
// holds a variable; 8 bytes (no neighbour walked past at all) was another
// 10% faster on such arrays but cost 4 KiB per page, as much as the page,
// on every page holding a mutex too.
constexpr uintptr_t kSpan = 16;
constexpr uint32_t kSpansPerPage = kPageSize / kSpan;
}  // namespace

struct SyncChains {
  SpinLock lock;
  // Bumped (under `lock`) at each removal. A reader that walked a chain
  // without the lock and found nothing checks it: a variable removed from
  // this page and used again elsewhere could have led it off the chain.
  std::atomic<uint32_t> removals;
  std::atomic<SyncVar *> head[kSpansPerPage];
};

namespace {

// Most atomics live at addresses with no variable (a relaxed store or load
// of a node's field); their lookup ends at a bitmap of 2 KiB that stays in
// the cache, one bit per filter bucket (a line's bucket in a table of
// 16,384, line_buckets.h), set while some variable's line maps to it. The
// bit and the count of variables behind it change under the bucket's lock.
constexpr int kBucketBits = 14;
constexpr uint32_t kBuckets = 1u << kBucketBits;
struct FilterBucket {
  SpinLock lock;
  std::atomic<uint32_t> vars;
};
FilterBucket g_filter[kBuckets];
std::atomic<uint64_t> g_bucket_used[kBuckets / 64];

uint32_t filter_index(uintptr_t addr) { return line_bucket<kBucketBits>(addr); }

bool bucket_may_hold(uint32_t index) {
  return (g_bucket_used[index / 64].load(std::memory_order_acquire) >> (index % 64)) & 1;
}

void mark_bucket(uint32_t index, bool used) {
  uint64_t bit = uint64_t(1) << (index % 64);
  if (used) g_bucket_used[index / 64].fetch_or(bit, std::memory_order_release);
  else g_bucket_used[index / 64].fetch_and(~bit, std::memory_order_release);
}

// Called before a variable is published (the bit must be set by then).
void count_in_filter(uint32_t index) {
  FilterBucket &b = g_filter[index];
  SpinLockGuard guard(b.lock);
  b.vars.store(b.vars.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  if (!bucket_may_hold(index)) mark_bucket(index, true);
}

// A removal only counts down and leaves the bit set: an object holding a
// mutex, freed, and another made at the address malloc hands out again,
// set and cleared it each time, an atomic read-modify-write of a line every
// thread that makes locks writes.
void uncount_in_filter(uint32_t index) {
  FilterBucket &b = g_filter[index];
  SpinLockGuard guard(b.lock);
  b.vars.store(b.vars.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
}

// Clears the bit of bucket `index` if no variable is behind it, for a
// lookup that found none: once, where later lookups would find none again
// and again. Only tried: the bit is a filter, a later lookup clears it as
// well, and a lookup must not wait for the lock (a signal handler's lookup
// while the thread it interrupted holds that lock would wait forever).
void unmark_empty_bucket(uint32_t index) {
  FilterBucket &b = g_filter[index];
  if (b.vars.load(std::memory_order_relaxed) != 0 || !b.lock.try_lock()) return;
  if (b.vars.load(std::memory_order_relaxed) == 0) mark_bucket(index, false);
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
// mutexes alive, not to all it ever made. It first waits while 1,024 others
// are freed after it: a thread that found it just before it was forgotten
// (a lookup between its chain's head and its address, a remembered pointer)
// has long finished with it when it is used again. After the quarantine it
// joins the free list.
Quarantine<1024> g_quarantine;

// The variables out of quarantine, linked through `next` (under
// g_carve_lock). Each pop read a line of a variable freed long before, a
// cache miss (6% of a thread pool's test that makes a variable per atomic
// flag of a loop, 2 million per round): the new top is fetched at each pop,
// so the next pop finds it cached. (A stack of pointers in pages of its own
// was as fast, and cost 8 bytes per free variable: 16 MB for those 2
// million.)
SyncVar *g_free;

void push_free(SyncVar *v) {
  v->next.store(g_free, std::memory_order_relaxed);
  g_free = v;
}

SyncVar *pop_free() {
  SyncVar *v = g_free;
  if (!v) return nullptr;
  g_free = v->next.load(std::memory_order_relaxed);
  if (g_free) {
    // The next pop reads its link, reuse() writes it.
    prefetch_for_write(g_free);
  }
  return v;
}

void quarantine(SyncVar *v) {
  auto *released = static_cast<SyncVar *>(g_quarantine.push(v));
  if (!released) return;
  SpinLockGuard guard(g_carve_lock);
  push_free(released);
}

// Takes the variable's lock: a thread still holding the old one (a lock
// freed while held, which the program should not do) finishes its update
// before the variable starts afresh. Its version goes on counting, so that
// no thread's AcquireCache entry for the old variable matches the new one.
void reuse(SyncVar *v, uintptr_t addr) {
  VarLockGuard guard(v);
  v->addr = addr;
  if (v->readers_released.load(std::memory_order_relaxed)) drop_read_clock(v);
  v->readers_released.store(false, std::memory_order_relaxed);
  v->clock.clear();
  v->alone.store(kEmptyLockset, std::memory_order_relaxed);
  bump_version(v);
  v->forgotten.store(false, std::memory_order_release);
}

SyncVar *new_sync_var(uintptr_t addr) {
  SyncVar *memory;
  {
    SpinLockGuard guard(g_carve_lock);
    memory = pop_free();
    if (!memory) {
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

// The chain heads of `page`, made on its first variable.
SpinLock g_chains_lock;
SyncChains *g_chains_next;
SyncChains *g_chains_end;

SyncChains *chains_of(ShadowPage *page) {
  if (SyncChains *chains = page->sync_chains.load(std::memory_order_acquire)) return chains;
  SpinLockGuard guard(g_chains_lock);
  SyncChains *chains = page->sync_chains.load(std::memory_order_acquire);
  if (chains) return chains;
  if (g_chains_next == g_chains_end) {
    constexpr size_t kPerRun = 32;  // 65 KiB
    g_chains_next = static_cast<SyncChains *>(map_pages(sizeof(SyncChains) * kPerRun));
    g_chains_end = g_chains_next + kPerRun;
  }
  chains = new (g_chains_next++) SyncChains();
  page->sync_chains.store(chains, std::memory_order_release);
  return chains;
}

std::atomic<SyncVar *> &chain_head(SyncChains *chains, uintptr_t addr) {
  return chains->head[(addr & (kPageSize - 1)) / kSpan];
}

// The pages whose chain heads this thread found last, direct-mapped by page.
// A page's heads never move once made, so an entry never goes stale; it
// saves the three dependent loads of the shadow page's lookup (a queue's
// cells, looked up by both ends, span a few pages).
struct RecentChains {
  uintptr_t page;
  SyncChains *chains;
};
constexpr int kRecentChainsBits = 4;  // 16 entries, 256 bytes per thread
SNAG_TLS RecentChains t_recent_chains[1u << kRecentChainsBits];

// The chain heads of `addr`'s page, if a variable was ever made there.
SyncChains *find_chains(uintptr_t addr) {
  const uintptr_t page_number = addr / kPageSize;
  RecentChains &recent = t_recent_chains[page_number & ((1u << kRecentChainsBits) - 1)];
  if (recent.page == page_number && recent.chains) return recent.chains;
  ShadowPage *page = find_shadow_page(addr);
  SyncChains *chains = page ? page->sync_chains.load(std::memory_order_acquire) : nullptr;
  if (chains) recent = {page_number, chains};
  return chains;
}

SyncVar *find_in_chain(std::atomic<SyncVar *> &head, uintptr_t addr) {
  for (SyncVar *v = head.load(std::memory_order_acquire); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return v;
  return nullptr;
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
  const uint32_t index = filter_index(addr);
  if (!create && !bucket_may_hold(index)) return nullptr;
  SyncChains *chains = find_chains(addr);
  if (!chains) {
    if (!create) {
      unmark_empty_bucket(index);
      return nullptr;
    }
    chains = chains_of(shadow_page(addr));
  }
  std::atomic<SyncVar *> &head = chain_head(chains, addr);
  const uint32_t removals = chains->removals.load(std::memory_order_acquire);
  if (SyncVar *v = find_in_chain(head, addr)) return remember(recent, v);
  // Not found: certainly so unless a removal could have led the walk astray.
  if (!create && chains->removals.load(std::memory_order_acquire) == removals) {
    if (!head.load(std::memory_order_relaxed)) unmark_empty_bucket(index);
    return nullptr;
  }
  SpinLockGuard guard(chains->lock);
  if (SyncVar *v = find_in_chain(head, addr)) return remember(recent, v);
  if (!create) return nullptr;
  count_in_filter(index);
  SyncVar *v = new_sync_var(addr);
  // Read before the variable is published: nobody released here yet.
  if (made) made->note(v, v->version.load(std::memory_order_relaxed), true);
  v->next.store(head.load(std::memory_order_relaxed), std::memory_order_relaxed);
  head.store(v, std::memory_order_release);
  shadow_page(addr)->sync_objects.fetch_add(1, std::memory_order_relaxed);
  return remember(recent, v);
}

void sync_var_prefetch(uintptr_t addr) {
  const RecentVar &recent = recent_slot(addr);
  SyncVar *v = recent.addr == addr ? recent.var : nullptr;
  if (!v && bucket_may_hold(filter_index(addr))) {
    // Most chains hold one variable: the head is the one, without reading it.
    if (SyncChains *chains = find_chains(addr)) v = chain_head(chains, addr).load(std::memory_order_acquire);
  }
  if (!v) return;
  prefetch_for_write(v);
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
  if (reader) {
    VectorClock &published = read_clock_of(v);
    published.merge(from);
    v->readers_released.store(true, std::memory_order_relaxed);
  } else {
    v->clock.merge(from);
  }
  bump_version(v);
  SNAG_DEBUG_ASSERT(reader ? read_clock_of(v).covers(from) : v->clock.covers(from),
                    "a release publishes all the releaser saw");
}

namespace {

// sync_store's work; returns the variable (null when there was none to
// clear) and, in *version, the version the store made.
SyncVar *store_clock(uintptr_t addr, const VectorClock *from, uint32_t *version) {
  SyncVar *v = sync_var(addr, from != nullptr);
  if (!v) return nullptr;
  VarLockGuard guard(v);
  if (from) v->clock.assign(*from);
  else v->clock.clear();
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
  v->clock.merge_into(into);
  // Read under the lock: the version of the clock just merged.
  seen.note(v, v->version.load(std::memory_order_relaxed), into_clock);
}

void sync_acquire(uintptr_t addr, VectorClock &into, bool readers) {
  if (SyncVar *v = sync_var(addr, false)) sync_acquire_var(v, into, readers);
}

void sync_acquire_var(SyncVar *v, VectorClock &into, bool readers) {
  VarLockGuard guard(v);
  v->clock.merge_into(into);
  const VectorClock *read = readers ? sync_read_clock(v) : nullptr;
  if (read) into.merge(*read);
  SNAG_DEBUG_ASSERT(v->clock.covered_by(into) && (!read || into.covers(*read)),
                    "an acquire takes everything released at the address");
}

uint32_t sync_acquire_lock(SyncVar *v, VectorClock &into, bool write_mode, AcquireCache &seen) {
  const uint32_t version = v->version.load(std::memory_order_acquire);
  // A writer also takes what readers released, which `seen` does not vouch for.
  if (seen.has(v, version, true) &&
      !(write_mode && v->readers_released.load(std::memory_order_relaxed)))
    return version;
  VarLockGuard guard(v);
  v->clock.merge_into(into);
  if (write_mode)
    if (const VectorClock *read = sync_read_clock(v)) into.merge(*read);
  return v->version.load(std::memory_order_relaxed);
}

void sync_release_lock(SyncVar *v, const VectorClock &from, bool write_mode, uint32_t acquired,
                       AcquireCache &seen) {
  VarLockGuard guard(v);
  // Unchanged since this thread's acquire, which took all of it (a writer
  // takes both clocks): `from` covers both, before and after the merge.
  const bool covered = write_mode && v->version.load(std::memory_order_relaxed) == acquired;
  if (write_mode) {
    v->clock.merge(from);
  } else {
    read_clock_of(v).merge(from);
    v->readers_released.store(true, std::memory_order_relaxed);
  }
  bump_version(v);
  if (covered) seen.note(v, v->version.load(std::memory_order_relaxed), true);
  SNAG_DEBUG_ASSERT(!covered || (v->clock.covered_by(from) && (!sync_read_clock(v) || from.covers(*sync_read_clock(v)))),
                    "a release noted as seen publishes nothing the releaser lacks");
}

size_t sync_chain_length(uintptr_t addr) {
  SyncChains *chains = find_chains(addr);
  if (!chains) return 0;
  size_t length = 0;
  for (SyncVar *v = chain_head(chains, addr).load(std::memory_order_acquire); v;
       v = v->next.load(std::memory_order_acquire))
    ++length;
  return length;
}

size_t sync_vars_carved() {
  SpinLockGuard guard(g_carve_lock);
  return g_carved;
}

void sync_forget_range(uintptr_t begin, uintptr_t end) {
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t page_start, uint32_t, uint32_t) {
    if (page->sync_objects.load(std::memory_order_relaxed) == 0) return;
    SyncChains *chains = page->sync_chains.load(std::memory_order_acquire);
    if (!chains) return;
    const uintptr_t first = (begin > page_start ? begin : page_start) & ~(kSpan - 1);
    const uintptr_t last = end < page_start + kPageSize ? end : page_start + kPageSize;
    // A freed block on a page holding variables elsewhere (a node beside
    // nodes with atomics) takes no lock.
    bool any = false;
    for (uintptr_t span = first; span < last && !any; span += kSpan)
      any = chain_head(chains, span).load(std::memory_order_relaxed) != nullptr;
    if (!any) return;
    SpinLockGuard guard(chains->lock);
    for (uintptr_t span = first; span < last; span += kSpan) {
      // Each variable is written (unlinked, forgotten) and most were last
      // touched long ago: fetching those a few spans ahead overlaps their
      // misses (an array of atomic flags freed: 70% of this walk waited on
      // them one at a time).
      constexpr uintptr_t kAhead = 4 * kSpan;
      if (span + kAhead < last) {
        if (SyncVar *ahead = chain_head(chains, span + kAhead).load(std::memory_order_relaxed)) {
          prefetch_for_write(ahead);
        }
      }
      std::atomic<SyncVar *> *link = &chain_head(chains, span);
      for (SyncVar *v = link->load(std::memory_order_relaxed); v;) {
        SyncVar *next = v->next.load(std::memory_order_relaxed);
        if (v->addr >= begin && v->addr < end) {
          link->store(next, std::memory_order_release);
          chains->removals.store(chains->removals.load(std::memory_order_relaxed) + 1, std::memory_order_release);
          v->forgotten.store(true, std::memory_order_release);
          page->sync_objects.fetch_sub(1, std::memory_order_relaxed);
          uncount_in_filter(filter_index(v->addr));
          quarantine(v);  // a lock-free reader may still be looking at it
        } else {
          link = &v->next;
        }
        v = next;
      }
    }
  });
}

}  // namespace snag::race
