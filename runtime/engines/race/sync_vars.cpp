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

void SyncClock::assign(const Clock *from, uint32_t n) {
  if (n > size_) grow(n);
  Clock *v = values();
  copy_bytes(v, from, sizeof(Clock) * n);
  for (uint32_t i = n; i < size_; ++i) v[i] = 0;
}

void SyncClock::clear() {
  __builtin_memset(values(), 0, sizeof(Clock) * size_);
}

void SyncClock::merge_into(VectorClock &into) const { into.merge(values(), size_); }

int SyncClock::copy_unlocked(Clock *out) const {
  const uint32_t n = __atomic_load_n(&size_, __ATOMIC_RELAXED);
  if (n > kInline) return -1;
  for (uint32_t i = 0; i < n; ++i) out[i] = __atomic_load_n(&words_[i], __ATOMIC_RELAXED);
  return static_cast<int>(n);
}

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
// 8 bytes (16 before section 55): a compact word stands for one atomic, and
// an array of 8-byte atomics (many_atomics, a thread pool's flags) has one
// per 8 bytes. Heads are 4 KiB per page that holds a word or an atomic's
// variable.
// A page whose first variable is a lock's (an array of objects with a mutex
// each: lock_pairs' 10,000 accounts, a hash map's buckets) takes narrow
// heads instead, one per 64 bytes (512 bytes a page; one per 32 bytes, 1 KiB,
// in race_bench.txt section 83, was 120 KB of lock_pairs' peak, section 107):
// a lookup walks past at most one other lock (40-byte mutexes 48 bytes apart
// start twice in one span in three), and the lock a thread holds keeps its
// variable, so only the acquire's lookup walks. Heads never change width (a
// thread keeps a page's heads without a lock, RecentChains), so a narrow
// page never holds a compact word: an atomic released there takes the
// variable path, as one that several threads release at does.
constexpr uint8_t kWideShift = 3;    // a head per 8 bytes; compact words allowed
constexpr uint8_t kNarrowShift = 6;  // a head per 64 bytes; variables only
constexpr uint32_t kSpansPerPage = kPageSize >> kWideShift;
}  // namespace

struct SyncChains {
  SpinLock lock;
  // kWideShift or kNarrowShift: a head stands for (1 << span_shift) bytes.
  uint8_t span_shift;
  // Bumped (under `lock`) at each removal. A reader that walked a chain
  // without the lock and found nothing checks it: a variable removed from
  // this page and used again elsewhere could have led it off the chain.
  std::atomic<uint32_t> removals;
  // Per span: 0, the first variable of its chain, or (bit 0 set, wide
  // heads only) a compact word (below). Narrow heads are the first
  // kPageSize >> kNarrowShift of these: their memory ends there.
  std::atomic<uintptr_t> head[kSpansPerPage];
};

namespace {

// Compact words (race_bench.txt section 53's design, section 55). A chain
// head with bit 0 set is a word standing for the one atomic of its span that
// it names (bits 1-3: the address's offset in the span), with no variable
// there: bits 4-31 a snapshot's index (0: nothing published, as a variable
// with an empty clock), bits 32-63 the epoch e at which the snapshot's
// owner T released. What it publishes is C_T(e): the snapshot, whose entries
// other than T's are T's clock at e (T made a new one at its first release
// after its clock grew), with T's entry e. A head moves from 0 to a word,
// from a word to a word of the same address (lock-free, by
// compare-and-swap) and, under the page's chains lock only, from a word to
// a chain (the word made a variable: sync_var) or to 0 (freed).
constexpr uintptr_t kWordTag = 1;
constexpr uint32_t kSnapshotBits = 28;

bool is_word(uintptr_t head) { return head & kWordTag; }
SyncVar *first_var(uintptr_t head) { return is_word(head) ? nullptr : reinterpret_cast<SyncVar *>(head); }
uintptr_t make_word(uintptr_t addr, uint32_t snapshot, Clock epoch) {
  return kWordTag | ((addr & 7) << 1) | (uintptr_t(snapshot) << 4) | (uintptr_t(epoch) << 32);
}
uintptr_t word_addr(uintptr_t head, uintptr_t span_addr) { return (span_addr & ~uintptr_t(7)) | ((head >> 1) & 7); }
bool word_names(uintptr_t head, uintptr_t addr) { return is_word(head) && ((head >> 1) & 7) == (addr & 7); }
uint32_t word_snapshot(uintptr_t head) { return static_cast<uint32_t>(head >> 4) & ((1u << kSnapshotBits) - 1); }
Clock word_epoch(uintptr_t head) { return static_cast<Clock>(head >> 32); }

// An immutable copy of a thread's clock, shared by the words of its releases
// while its clock grows only in its own entry. One cache line; a clock of
// more than kInline entries in an array of the runtime allocator, kept
// across reuse.
struct alignas(64) Snapshot {
  static constexpr uint32_t kInline = 9;
  // Words naming it, plus one while it is its thread's current snapshot.
  std::atomic<uint32_t> refs;
  Tid owner;
  uint32_t size;
  uint32_t index;
  Clock *heap;
  uint32_t heap_capacity;
  Clock inline_[kInline];
  const Clock *values() const { return size <= kInline ? inline_ : heap; }
};
static_assert(sizeof(Snapshot) == 64, "a snapshot is one cache line");

// Snapshots by index: chunks of 4,096 (256 KiB, mapped on first use).
constexpr uint32_t kSnapshotChunkBits = 12;
constexpr uint32_t kSnapshotChunks = 1u << (kSnapshotBits - kSnapshotChunkBits);
std::atomic<Snapshot *> g_snapshot_chunks[kSnapshotChunks];
SpinLock g_snapshot_lock;
uint32_t g_snapshots_carved;  // under g_snapshot_lock; index 0 is never used
uint32_t g_free_snapshot;     // under g_snapshot_lock, linked through `index`... of a free one: its next
std::atomic<size_t> g_snapshots_alive;
// A snapshot whose last word left it may still be read by a thread that
// loaded such a word just before: it waits while 1,024 others are freed
// after it (as variables do) before its index is used again.
Quarantine<1024> g_snapshot_quarantine;

Snapshot *snapshot_at(uint32_t index) {
  return g_snapshot_chunks[index >> kSnapshotChunkBits].load(std::memory_order_acquire) +
         (index & ((1u << kSnapshotChunkBits) - 1));
}

// A new snapshot of `clock` for the thread in `owner`, holding one
// reference (the thread's); 0 when every index is taken.
uint32_t new_snapshot(const VectorClock &clock, Tid owner) {
  Snapshot *s;
  {
    SpinLockGuard guard(g_snapshot_lock);
    uint32_t index = g_free_snapshot;
    if (index) {
      s = snapshot_at(index);
      g_free_snapshot = s->owner;  // a free snapshot's `owner` links the next free one
    } else {
      if (g_snapshots_carved + 1 >= (1u << kSnapshotBits)) return 0;
      index = ++g_snapshots_carved;
      std::atomic<Snapshot *> &chunk = g_snapshot_chunks[index >> kSnapshotChunkBits];
      if (!chunk.load(std::memory_order_relaxed))
        chunk.store(static_cast<Snapshot *>(map_pages(sizeof(Snapshot) << kSnapshotChunkBits)),
                    std::memory_order_release);
      s = snapshot_at(index);
    }
    s->index = index;
  }
  const uint32_t n = clock.size();
  if (n > Snapshot::kInline && s->heap_capacity < n) {
    if (s->heap) internal_free(s->heap);
    s->heap_capacity = 2 * n;
    s->heap = internal_new_array<Clock>(s->heap_capacity);
  }
  s->size = n;
  copy_bytes(n <= Snapshot::kInline ? s->inline_ : s->heap, clock.data(), sizeof(Clock) * n);
  s->owner = owner;
  s->refs.store(1, std::memory_order_relaxed);
  g_snapshots_alive.fetch_add(1, std::memory_order_relaxed);
  return s->index;  // published by the word that names it (a release)
}

void ref_snapshot(uint32_t index) {
  if (index) snapshot_at(index)->refs.fetch_add(1, std::memory_order_relaxed);
}

void unref_snapshot(uint32_t index) {
  if (!index) return;
  Snapshot *s = snapshot_at(index);
  if (s->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  g_snapshots_alive.fetch_sub(1, std::memory_order_relaxed);
  auto *released = static_cast<Snapshot *>(g_snapshot_quarantine.push(s));
  if (!released) return;
  SpinLockGuard guard(g_snapshot_lock);
  released->owner = g_free_snapshot;
  g_free_snapshot = released->index;
}

// True when `clock` equals snapshot `index` in every entry but `self`'s: the
// snapshot stands for the thread's clock at any epoch from now on until its
// clock grows by an acquire.
bool snapshot_is_current(uint32_t index, const VectorClock &clock, Tid self) {
  const Snapshot *s = snapshot_at(index);
  const Clock *values = s->values();
  const uint32_t n = clock.size();
  const Clock *c = clock.data();
  // The clock's size only grows: entries past the snapshot's were 0 in it.
  for (uint32_t i = 0; i < n; ++i) {
    const Clock was = i < s->size ? values[i] : 0;
    if (c[i] != was && i != self) return false;
  }
  return true;
}

// The snapshot a release by `self` names (rule 4: a new one when the
// thread's clock grew since its current one); 0 when none is left.
uint32_t current_snapshot(const AtomicThread &self) {
  const uint32_t index = self.snapshot;
  if (index && snapshot_is_current(index, self.clock, self.slot)) return index;
  const uint32_t fresh = new_snapshot(self.clock, self.slot);
  if (!fresh) return 0;
  unref_snapshot(index);
  self.snapshot = fresh;
  return fresh;
}

// What word `head` publishes, into `into` (rule 4), unless rules 2 and 3
// show `into` or `own` (the thread's clock; null if unknown) holds it:
// every clock holding T's entry e or above got it from T's release at e or a
// later one, each of which carried T's whole clock (clocks are joined, never
// partly copied), so it holds C_T(e).
void take_word(uintptr_t head, VectorClock &into, Tid self, const VectorClock *own) {
  const uint32_t index = word_snapshot(head);
  if (!index) return;  // nothing published
  const Snapshot *s = snapshot_at(index);
  const Tid owner = s->owner;
  const Clock epoch = word_epoch(head);
  if (own && owner == self) return;                        // rule 2
  if (own && own->get(owner) >= epoch) return;             // rule 3
  if (into.get(owner) >= epoch) return;                    // rule 3
  into.merge(s->values(), s->size);                        // rule 4
  if (into.get(owner) < epoch) into.set(owner, epoch);
}

// The same clock, as a variable made from the word keeps it.
void word_clock(uintptr_t head, SyncClock &clock) {
  clock.clear();
  const uint32_t index = word_snapshot(head);
  if (!index) return;
  const Snapshot *s = snapshot_at(index);
  clock.assign(s->values(), s->size);
  if (clock.get(s->owner) < word_epoch(head)) clock.set(s->owner, word_epoch(head));
}

}  // namespace

namespace {

// Most atomics live at addresses with no variable (a relaxed store or load
// of a node's field); their lookup ends at a bitmap of 2 KiB that stays in
// the cache, one bit per filter bucket (a line's bucket in a table of
// 16,384, line_buckets.h), set while some variable's line maps to it. The
// bit and the count of variables behind it change under the bucket's lock.
constexpr int kBucketBits = 14;
constexpr uint32_t kBuckets = 1u << kBucketBits;
// 4 bytes a bucket, not 8: an array of locks touches one bucket per line it
// spans (lock_pairs' 10,000 accounts: 7,500 buckets, 60 KB resident at 8
// bytes). A count that reaches the top stays there (the bit is never
// cleared again): 65,535 variables behind one line's bucket, a billion in
// the table, are not expected.
constexpr uint16_t kVarsSaturated = 0xffff;
struct FilterBucket {
  SpinLock lock;
  std::atomic<uint16_t> vars;
};
static_assert(sizeof(FilterBucket) == 4, "a filter bucket stays small");
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
  const uint16_t vars = b.vars.load(std::memory_order_relaxed);
  if (vars != kVarsSaturated) b.vars.store(vars + 1, std::memory_order_relaxed);
  if (!bucket_may_hold(index)) mark_bucket(index, true);
}

// A removal only counts down and leaves the bit set: an object holding a
// mutex, freed, and another made at the address malloc hands out again,
// set and cleared it each time, an atomic read-modify-write of a line every
// thread that makes locks writes.
void uncount_in_filter(uint32_t index) {
  FilterBucket &b = g_filter[index];
  SpinLockGuard guard(b.lock);
  const uint16_t vars = b.vars.load(std::memory_order_relaxed);
  if (vars != kVarsSaturated) b.vars.store(vars - 1, std::memory_order_relaxed);
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
    // What the holder writes next is ordered after the lock's word: a
    // reader without the lock (read_clock_unlocked) that saw any of it sees
    // the lock held, or the version it bumps before unlocking.
    std::atomic_thread_fence(std::memory_order_release);
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

// An acquire's read of v's clock without v's lock (race_bench.txt section
// 60), as a sequence lock's reader: `version` (loaded with acquire) is the
// sequence, v's spin lock the writer's mark. Every change of the clock is
// made under the lock and bumps the version before the unlock, so a copy
// made while the lock was free at both ends and the version stayed is the
// clock of that version. Taking the lock instead wrote the variable's line:
// at a hand-off (a queue's index released by one thread and acquired by the
// other, spsc_long; a mutex passed between threads) the acquirer fetched it
// for reading (the version), upgraded it (the lock) and the releaser then
// fetched it back modified; now the releaser only invalidates the
// acquirer's copy. False (take the lock) while a writer is there, for a
// clock of more than kInline entries (its array may be replaced), or when
// the version moved. Merges into `into` only on success.
bool read_clock_unlocked(const SyncVar *v, uint32_t version, VectorClock &into) {
  if (!v->lock.is_free(std::memory_order_relaxed)) return false;
  Clock copy[SyncClock::kInline];
  const int n = v->clock.copy_unlocked(copy);
  if (n < 0) return false;
  std::atomic_thread_fence(std::memory_order_acquire);
  if (!v->lock.is_free(std::memory_order_acquire) || v->version.load(std::memory_order_relaxed) != version)
    return false;
  into.merge(copy, static_cast<uint32_t>(n));
  return true;
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

// Each thread retires the variables it forgets, and takes those it makes,
// in batches (race_bench.txt section 60): an object holding a mutex, made
// and freed by two threads at once (short_lived_locks), took the quarantine's
// lock and the carve lock twice per object, three lines both threads write,
// one transfer each when they run side by side (a quarter of its profile,
// sync_forget_range and sync_var). A retired variable waits in its thread's
// batch before it enters the quarantine: later, never sooner, than alone.
// The variables leaving the quarantine for a batch go to the thread's own
// free stash first. Both are given back at the thread's exit
// (sync_thread_exit). `busy` (set by StashHold) keeps a nested call (a
// signal handler's free while the thread is in here) off the stash: it
// takes the locks instead.
constexpr uint32_t kStashBatch = 16;
struct VarStash {
  bool busy;
  uint32_t retired_count;
  uint32_t free_count;
  SyncVar *retired[kStashBatch];
  SyncVar *free[kStashBatch];
};
SNAG_TLS VarStash t_stash;

// The thread's stash for one operation, or null in a nested call (the
// outer one is in the middle of changing it).
class StashHold {
 public:
  StashHold() : stash_(t_stash.busy ? nullptr : &t_stash) {
    if (!stash_) return;
    stash_->busy = true;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~StashHold() {
    if (!stash_) return;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    stash_->busy = false;
  }
  StashHold(const StashHold &) = delete;
  StashHold &operator=(const StashHold &) = delete;
  VarStash *get() const { return stash_; }

 private:
  VarStash *stash_;
};

// Enters the stash's retired batch into the quarantine; what leaves it goes
// to the free stash while it has room, the rest to the free list.
void flush_retired(VarStash &s) {
  void *released[kStashBatch];
  const size_t n = g_quarantine.push_all(reinterpret_cast<void *const *>(s.retired), s.retired_count, released);
  s.retired_count = 0;
  size_t i = 0;
  for (; i < n && s.free_count < kStashBatch; ++i) s.free[s.free_count++] = static_cast<SyncVar *>(released[i]);
  if (i == n) return;
  SpinLockGuard guard(g_carve_lock);
  for (; i < n; ++i) push_free(static_cast<SyncVar *>(released[i]));
}

void quarantine(SyncVar *v) {
  StashHold hold;
  if (VarStash *s = hold.get()) {
    s->retired[s->retired_count++] = v;
    if (s->retired_count == kStashBatch) flush_retired(*s);
    return;
  }
  auto *released = static_cast<SyncVar *>(g_quarantine.push(v));
  if (!released) return;
  SpinLockGuard guard(g_carve_lock);
  push_free(released);
}

// A variable of the thread's free stash, or null.
SyncVar *take_stashed() {
  StashHold hold;
  VarStash *s = hold.get();
  if (!s || !s->free_count) return nullptr;
  SyncVar *v = s->free[--s->free_count];
  // reuse() writes it; the next one was last touched long ago.
  if (s->free_count) prefetch_for_write(s->free[s->free_count - 1]);
  return v;
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
  SyncVar *memory = take_stashed();
  if (!memory) {
    SpinLockGuard guard(g_carve_lock);
    memory = pop_free();
    if (!memory) {
      if (g_carve_next == g_carve_end) {
        // No pair ids (a lock's one-lock set at most): not searched (lockset_references.h).
        g_carve_next = static_cast<SyncVar *>(map_pages_unvisited(sizeof(SyncVar) * kVarsPerRun));
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

// The chain heads of `page`, made on its first variable (`narrow`: a lock's,
// above), carved at their size from runs that are never unmapped.
SpinLock g_chains_lock;
char *g_chains_next;
char *g_chains_end;
std::atomic<size_t> g_chains_bytes;

size_t chains_size(uint8_t span_shift) {
  return sizeof(SyncChains) - sizeof(SyncChains::head) + sizeof(std::atomic<uintptr_t>) * (kPageSize >> span_shift);
}

SyncChains *chains_of(ShadowPage *page, bool narrow) {
  if (SyncChains *chains = page->sync_chains.load(std::memory_order_acquire)) return chains;
  SpinLockGuard guard(g_chains_lock);
  SyncChains *chains = page->sync_chains.load(std::memory_order_acquire);
  if (chains) return chains;
  const uint8_t shift = narrow ? kNarrowShift : kWideShift;
  const size_t size = chains_size(shift);
  if (size_t(g_chains_end - g_chains_next) < size) {
    // 32 wide heads' worth and the rest of the last page (narrow ones fit
    // there): a run of 16 pages held 15 wide and left most of a page that
    // is resident (many_atomics' 3,900 pages of atomics: +0.5 MB).
    const size_t run_bytes = (32 * chains_size(kWideShift) + kPageSize - 1) & ~(kPageSize - 1);
    // Pointers: not searched for lockset ids (lockset_references.h).
    g_chains_next = static_cast<char *>(map_pages_unvisited(run_bytes));
    g_chains_end = g_chains_next + run_bytes;
  }
  // Not constructed (that would zero a narrow one's absent heads, the next
  // one's memory): fresh pages are zeros, a free lock and empty heads.
  chains = reinterpret_cast<SyncChains *>(g_chains_next);
  chains->span_shift = shift;
  g_chains_next += size;
  g_chains_bytes.fetch_add(size, std::memory_order_relaxed);
  page->sync_chains.store(chains, std::memory_order_release);
  return chains;
}

std::atomic<uintptr_t> &chain_head(SyncChains *chains, uintptr_t addr) {
  return chains->head[(addr & (kPageSize - 1)) >> chains->span_shift];
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

SyncVar *find_in_chain(std::atomic<uintptr_t> &head, uintptr_t addr) {
  for (SyncVar *v = first_var(head.load(std::memory_order_acquire)); v; v = v->next.load(std::memory_order_acquire))
    if (v->addr == addr) return v;
  return nullptr;
}

}  // namespace

namespace {

// A variable made from word `head` (its address's), holding what the word
// published; not yet linked.
SyncVar *var_from_word(uintptr_t head, uintptr_t span_addr) {
  SyncVar *v = new_sync_var(word_addr(head, span_addr));
  VarLockGuard guard(v);
  word_clock(head, v->clock);
  bump_version(v);
  return v;
}

// The variable this thread's cache of recent variables names for `addr`,
// checked (not forgotten, still `addr`'s); null when it names none.
SNAG_ALWAYS_INLINE SyncVar *recent_var(const RecentVar &recent, uintptr_t addr) {
  if (recent.addr != addr || !recent.var) return nullptr;
  // Forgotten, or forgotten and used again for another address.
  if (recent.var->forgotten.load(std::memory_order_acquire) || recent.var->addr != addr) return nullptr;
  return recent.var;
}

SyncVar *lookup_slowly(uintptr_t addr, bool create, AcquireCache *made, uintptr_t *word, RecentVar &recent);

// sync_var's work. With `word` (a lookup without `create`), a compact word
// naming `addr` found instead of a variable is stored there (else 0).
// The cache's answer inline, the rest out of line: most lookups end at the
// cache (a queue's indices, a counter), and the whole function's frame
// (five saved registers and 72 bytes of stack) cost them more than the
// answer (spsc_long: ~50 instructions a lookup, 6 million lookups).
SNAG_ALWAYS_INLINE SyncVar *lookup(uintptr_t addr, bool create, AcquireCache *made, uintptr_t *word) {
  if (word) *word = 0;
  RecentVar &recent = recent_slot(addr);
  // A variable made or found with `create` is written next (a lock, an
  // unlock, a release): fetched for writing, its line moves once.
  if (create && recent.addr == addr && recent.var) prefetch_for_write(recent.var);
  if (SyncVar *v = recent_var(recent, addr)) return v;
  return lookup_slowly(addr, create, made, word, recent);
}

// lookup past the cache of recent variables (`recent`, addr's entry).
__attribute__((noinline)) SyncVar *lookup_slowly(uintptr_t addr, bool create, AcquireCache *made, uintptr_t *word,
                                                 RecentVar &recent) {
  const uint32_t index = filter_index(addr);
  if (!create && !bucket_may_hold(index)) return nullptr;
  SyncChains *chains = find_chains(addr);
  if (!chains) {
    if (!create) {
      unmark_empty_bucket(index);
      return nullptr;
    }
    // A lock about to be acquired (`made`) gives a new page narrow heads.
    chains = chains_of(shadow_page(addr), made != nullptr);
  }
  std::atomic<uintptr_t> &head = chain_head(chains, addr);
  const uint32_t removals = chains->removals.load(std::memory_order_acquire);
  if (SyncVar *v = find_in_chain(head, addr)) return remember(recent, v);
  // Not found: certainly so unless a removal could have led the walk astray.
  if (!create && chains->removals.load(std::memory_order_acquire) == removals) {
    const uintptr_t h = head.load(std::memory_order_acquire);
    if (!h) unmark_empty_bucket(index);
    if (word && word_names(h, addr)) *word = h;
    return nullptr;
  }
  SpinLockGuard guard(chains->lock);
  if (SyncVar *v = find_in_chain(head, addr)) return remember(recent, v);
  if (!create) {
    const uintptr_t h = head.load(std::memory_order_acquire);
    if (word && word_names(h, addr)) *word = h;
    return nullptr;
  }
  // Under the lock the head changes only from 0 to a word, or from a word
  // to a word of the same address (lock-free releases): a word found here
  // becomes a variable of its address (rule 5: anything but the atomic path
  // needs one), and the head moves from the word to the chain by
  // compare-and-swap, made again from the newer word when a release moved
  // it meanwhile.
  SyncVar *fresh = nullptr;  // the variable of `addr`, when the word is another address's
  auto make_fresh = [&] {
    if (fresh) return;
    count_in_filter(index);
    fresh = new_sync_var(addr);
    shadow_page(addr)->sync_objects.fetch_add(1, std::memory_order_relaxed);
    // Read before the variable is published: nobody released here yet.
    if (made) made->note(fresh, fresh->version.load(std::memory_order_relaxed), true);
  };
  uintptr_t h = head.load(std::memory_order_acquire);
  for (;;) {
    if (!is_word(h)) {
      make_fresh();
      fresh->next.store(first_var(h), std::memory_order_relaxed);
      if (head.compare_exchange_weak(h, reinterpret_cast<uintptr_t>(fresh), std::memory_order_acq_rel,
                                     std::memory_order_acquire))
        return remember(recent, fresh);
      continue;
    }
    if (fresh && word_names(h, addr)) {
      // Made while the head was 0, and a word of `addr` came meanwhile: the
      // word's variable stands for it. Never published: straight back.
      shadow_page(addr)->sync_objects.fetch_sub(1, std::memory_order_relaxed);
      uncount_in_filter(index);
      SpinLockGuard carve(g_carve_lock);
      push_free(fresh);
      fresh = nullptr;
    }
    // The word's count in the filter and the page passes to its variable.
    SyncVar *from_word = var_from_word(h, addr);
    SyncVar *top = from_word;
    if (!word_names(h, addr)) {
      make_fresh();
      fresh->next.store(from_word, std::memory_order_relaxed);
      top = fresh;
    }
    from_word->next.store(nullptr, std::memory_order_relaxed);
    const uintptr_t was = h;
    if (head.compare_exchange_strong(h, reinterpret_cast<uintptr_t>(top), std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
      unref_snapshot(word_snapshot(was));
      return remember(recent, fresh ? fresh : from_word);
    }
    // Never published: straight back to the free list.
    {
      SpinLockGuard carve(g_carve_lock);
      push_free(from_word);
    }
  }
}

}  // namespace

SyncVar *sync_var(uintptr_t addr, bool create, AcquireCache *made) { return lookup(addr, create, made, nullptr); }

SyncVar *sync_var_prefetch(uintptr_t addr) {
  RecentVar &recent = recent_slot(addr);
  SyncVar *v = recent.addr == addr ? recent.var : nullptr;
  if (!v && bucket_may_hold(filter_index(addr))) {
    // Most chains hold one variable: the head is the one, without reading it.
    if (SyncChains *chains = find_chains(addr)) v = first_var(chain_head(chains, addr).load(std::memory_order_acquire));
    // Remembered unchecked (every reader of the slot checks the variable's
    // address before using it): a lock whose acquires all take the variable
    // found here (kLockBefore's, a wait's) is looked up nowhere else, and
    // once another address took its slot, every prefetch went to the chains.
    if (v) recent = {addr, v};
  }
  if (!v) return nullptr;
  prefetch_for_write(v);
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

// A store's new release sequence at variable v: its clock becomes `from`
// (null: nothing). Returns the version the store made.
uint32_t store_clock_of(SyncVar *v, const VectorClock *from) {
  VarLockGuard guard(v);
  if (from) v->clock.assign(*from);
  else v->clock.clear();
  bump_version(v);
  return v->version.load(std::memory_order_relaxed);
}

// sync_store's work; returns the variable (null when there was none to
// clear) and, in *version, the version the store made.
SyncVar *store_clock(uintptr_t addr, const VectorClock *from, uint32_t *version) {
  uintptr_t word;
  SyncVar *v = lookup(addr, from != nullptr, nullptr, &word);
  while (!v && word) {
    // A relaxed store over a compact word: nothing published from now on
    // (the word of no snapshot), unless the word became a variable meanwhile.
    SyncChains *chains = find_chains(addr);
    if (chain_head(chains, addr).compare_exchange_strong(word, make_word(addr, 0, 0), std::memory_order_acq_rel)) {
      unref_snapshot(word_snapshot(word));
      return nullptr;
    }
    v = lookup(addr, false, nullptr, &word);
  }
  if (!v) return nullptr;
  *version = store_clock_of(v, from);
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

void sync_acquire_atomic(uintptr_t addr, VectorClock &into, bool into_clock, AcquireCache &seen, Tid self,
                         const VectorClock *own) {
  uintptr_t word;
  SyncVar *v = lookup(addr, false, nullptr, &word);
  if (!v) {
    if (word) take_word(word, into, self, own);
    return;
  }
  const uint32_t version = v->version.load(std::memory_order_acquire);
  if (seen.has(v, version, into_clock)) return;
  if (read_clock_unlocked(v, version, into)) {
    seen.note(v, version, into_clock);
    return;
  }
  VarLockGuard guard(v);
  v->clock.merge_into(into);
  // Read under the lock: the version of the clock just merged.
  seen.note(v, v->version.load(std::memory_order_relaxed), into_clock);
}

bool sync_acquire_takes_nothing(uintptr_t addr, bool into_clock, const AcquireCache &seen) {
  // As sync_acquire_atomic's lookup and first check, in their order.
  if (SyncVar *v = recent_var(recent_slot(addr), addr))
    return seen.has(v, v->version.load(std::memory_order_acquire), into_clock);
  return !bucket_may_hold(filter_index(addr));
}

void sync_acquire(uintptr_t addr, VectorClock &into, bool readers) {
  uintptr_t word;
  if (SyncVar *v = lookup(addr, false, nullptr, &word)) sync_acquire_var(v, into, readers);
  else if (word) take_word(word, into, 0, nullptr);  // (a futex woken at an atomic, say)
}

void sync_release_atomic(uintptr_t addr, const AtomicThread &self, bool store, AcquireCache &seen) {
  // A variable is there already (the usual case for a shared counter, a
  // queue's index or a flag several threads release): the variable path,
  // with the variable the cache named (a lookup would find it there again).
  if (SyncVar *v = recent_var(recent_slot(addr), addr)) {
    prefetch_for_write(v);
    if (store) seen.note(v, store_clock_of(v, &self.clock), true);  // as sync_store_atomic
    else sync_release_var(v, self.clock);
    return;
  }
  SyncChains *chains = find_chains(addr);
  if (!chains) chains = chains_of(shadow_page(addr), false);
  std::atomic<uintptr_t> &head = chain_head(chains, addr);
  uintptr_t h = head.load(std::memory_order_acquire);
  // Narrow heads hold no words: the variable path.
  while (chains->span_shift == kWideShift) {
    if (h && !word_names(h, addr)) break;  // variables here, or another address's word
    const uint32_t old = word_snapshot(h);
    // Rule 5: a read-modify-write continues another thread's sequence,
    // whose clock its own does not stand for. A store would start a new
    // word (exact), but a word that moves between threads moves its
    // snapshots' counts too, two atomic writes of lines other cores use
    // per release (atomic_queue's cells: +60% CPU): an atomic several
    // threads release at takes the variable path, stores included.
    if (old && snapshot_at(old)->owner != self.slot) break;
    // An atomic released at before, by a thread whose clock grew since
    // its current snapshot (it acquired something: a flag or an index
    // threads take turns at, a spin lock): a variable, which costs one
    // clock copy per release, where the word would cost a new snapshot
    // each time (spsc_long's indices). A fresh atomic (a new flag of a
    // pool's loop) still gets a word, and the thread a new snapshot.
    if (old && self.snapshot && !snapshot_is_current(self.snapshot, self.clock, self.slot)) break;
    const uint32_t snapshot = current_snapshot(self);
    if (!snapshot) break;  // out of snapshots (rule 5)
    if (old != snapshot) ref_snapshot(snapshot);
    const uint32_t index = filter_index(addr);
    if (!h) {
      // A new word: counted before it is published, as a variable is.
      count_in_filter(index);
      shadow_page(addr)->sync_objects.fetch_add(1, std::memory_order_relaxed);
    }
    const uintptr_t was = h;
    // Rule 1.
    if (head.compare_exchange_strong(h, make_word(addr, snapshot, self.now), std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
      if (old != snapshot) unref_snapshot(old);
      return;
    }
    if (old != snapshot) unref_snapshot(snapshot);  // (the thread's own reference keeps it)
    if (!was) {
      shadow_page(addr)->sync_objects.fetch_sub(1, std::memory_order_relaxed);
      uncount_in_filter(index);
    }
  }
  if (store) sync_store_atomic(addr, &self.clock, seen);
  else sync_release(addr, self.clock);
}

void sync_thread_done(uint32_t snapshot) { unref_snapshot(snapshot); }

void sync_thread_exit() {
  StashHold hold;
  VarStash *s = hold.get();
  if (!s) return;
  if (s->retired_count) flush_retired(*s);
  if (s->free_count) {
    SpinLockGuard guard(g_carve_lock);
    while (s->free_count) push_free(s->free[--s->free_count]);
  }
}

size_t sync_snapshots_alive() { return g_snapshots_alive.load(std::memory_order_relaxed); }

bool sync_has_compact_word(uintptr_t addr) {
  uintptr_t word;
  return !lookup(addr, false, nullptr, &word) && word;
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
  const bool readers = write_mode && v->readers_released.load(std::memory_order_relaxed);
  if (seen.has(v, version, true) && !readers) return version;
  // (A readers' release sets `readers_released` before the version bump
  // that `version`, loaded with acquire, saw or follows: when the copy's
  // check that the version stayed passes, `readers` above was read after it.)
  if (!readers && read_clock_unlocked(v, version, into)) return version;
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
  for (SyncVar *v = first_var(chain_head(chains, addr).load(std::memory_order_acquire)); v;
       v = v->next.load(std::memory_order_acquire))
    ++length;
  return length;
}

size_t sync_chains_bytes() { return g_chains_bytes.load(std::memory_order_relaxed); }

size_t sync_filter_bytes() { return sizeof(g_filter); }

size_t sync_vars_carved() {
  SpinLockGuard guard(g_carve_lock);
  return g_carved;
}

void sync_forget_range(uintptr_t begin, uintptr_t end) {
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t page_start, uint32_t, uint32_t) {
    if (page->sync_objects.load(std::memory_order_relaxed) == 0) return;
    SyncChains *chains = page->sync_chains.load(std::memory_order_acquire);
    if (!chains) return;
    const uintptr_t span_bytes = uintptr_t(1) << chains->span_shift;
    const uintptr_t first = (begin > page_start ? begin : page_start) & ~(span_bytes - 1);
    const uintptr_t last = end < page_start + kPageSize ? end : page_start + kPageSize;
    // A freed block on a page holding variables elsewhere (a node beside
    // nodes with atomics) takes no lock.
    bool any = false;
    for (uintptr_t span = first; span < last && !any; span += span_bytes)
      any = chain_head(chains, span).load(std::memory_order_relaxed) != 0;
    if (!any) return;
    SpinLockGuard guard(chains->lock);
    for (uintptr_t span = first; span < last; span += span_bytes) {
      // Each variable is written (unlinked, forgotten) and most were last
      // touched long ago: fetching those a few spans ahead overlaps their
      // misses (an array of atomic flags freed: 70% of this walk waited on
      // them one at a time).
      const uintptr_t ahead_bytes = 4 * span_bytes;
      if (span + ahead_bytes < last) {
        if (SyncVar *ahead = first_var(chain_head(chains, span + ahead_bytes).load(std::memory_order_relaxed))) {
          prefetch_for_write(ahead);
        }
      }
      std::atomic<uintptr_t> &head = chain_head(chains, span);
      uintptr_t h = head.load(std::memory_order_acquire);
      if (is_word(h)) {
        // A compact word: its atomic's memory freed, it goes. (A release
        // racing with the free may move it meanwhile: exchanged, not stored.)
        const uintptr_t addr = word_addr(h, span);
        if (addr < begin || addr >= end) continue;
        h = head.exchange(0, std::memory_order_acq_rel);
        unref_snapshot(word_snapshot(h));
        page->sync_objects.fetch_sub(1, std::memory_order_relaxed);
        uncount_in_filter(filter_index(addr));
        continue;
      }
      SyncVar *prev = nullptr;  // the variable whose `next` links the current one; null: the head
      for (SyncVar *v = first_var(h); v;) {
        SyncVar *next = v->next.load(std::memory_order_relaxed);
        if (v->addr >= begin && v->addr < end) {
          if (prev) prev->next.store(next, std::memory_order_release);
          else head.store(reinterpret_cast<uintptr_t>(next), std::memory_order_release);
          chains->removals.store(chains->removals.load(std::memory_order_relaxed) + 1, std::memory_order_release);
          v->forgotten.store(true, std::memory_order_release);
          page->sync_objects.fetch_sub(1, std::memory_order_relaxed);
          uncount_in_filter(filter_index(v->addr));
          quarantine(v);  // a lock-free reader may still be looking at it
        } else {
          prev = v;
        }
        v = next;
      }
    }
  });
}

}  // namespace snag::race
