// Synchronization variables: the vector clock that a release publishes at an
// address and an acquire of the same address takes (mutexes, condition
// variables, semaphores, barriers, once flags, static-init guards, futexes,
// atomics and annotations all meet here, keyed by address).
#pragma once

#include <atomic>
#include <stddef.h>
#include <stdint.h>

#include "core/spinlock.h"
#include "engines/race/lockset.h"
#include "engines/race/vector_clock.h"

namespace snag::race {

// A synchronization variable's clock, in 36 bytes where a VectorClock takes
// 48: up to kInline entries inline, more in an array of the runtime
// allocator whose capacity follows from the size (the power of two at or
// above it), so neither the array's pointer (it shares the inline entries'
// room) nor its capacity takes a field. Its size only grows, as a
// VectorClock's: `assign` of a shorter clock zeroes the rest. Used under
// the variable's lock only.
class SyncClock {
 public:
  static constexpr uint32_t kInline = 8;
  SyncClock() = default;
  SyncClock(const SyncClock &) = delete;
  SyncClock &operator=(const SyncClock &) = delete;

  uint32_t size() const { return size_; }
  Clock get(Tid t) const { return t < size_ ? values()[t] : 0; }
  void set(Tid t, Clock c) {
    if (t >= size_) grow(t + 1);
    values()[t] = c;
  }
  // this = max(this, from), element-wise (a release).
  void merge(const VectorClock &from);
  // this = from (a store); entries beyond from's size become 0.
  void assign(const VectorClock &from) { assign(from.data(), from.size()); }
  void assign(const Clock *values, uint32_t n);
  // Every entry 0 (the size kept).
  void clear();
  // into = max(into, this) (an acquire).
  void merge_into(VectorClock &into) const;
  // True when every entry of `other` is at most this clock's.
  bool covers(const VectorClock &other) const;
  // True when `clock` holds every entry of this one.
  bool covered_by(const VectorClock &clock) const;
  // Copies the entries into `out` (room for kInline) without the variable's
  // lock, and returns how many; -1 when they are more than kInline. The
  // copy may be torn: the caller checks the variable's lock and version
  // around it (sync_vars.cpp, read_clock_unlocked).
  int copy_unlocked(Clock *out) const;

 private:
  Clock *values() {
    if (size_ <= kInline) return words_;
    Clock *heap;
    __builtin_memcpy(&heap, words_, sizeof heap);
    return heap;
  }
  const Clock *values() const { return const_cast<SyncClock *>(this)->values(); }
  void grow(uint32_t size);

  uint32_t size_ = 0;
  Clock words_[kInline] = {};  // the entries, or (size_ > kInline) the array's address
};
static_assert(sizeof(SyncClock) == 36 && alignof(SyncClock) == 4, "a variable's clock stays small");

// One cache line: what a lock and an unlock write (the spin lock, the clock,
// its version) and read (the address, `forgotten`, `readers_released`, the
// one-lock lockset) sit together, so an acquire or release of a lock last
// used by another core moves one line. Variables are carved 64-byte aligned
// (sync_vars.cpp): two locks' variables never share a line. 64 bytes, not
// 128 (race_bench.txt section 53): a program with an atomic per element of
// a large array (many_atomics: two million) keeps a variable for each. The
// clock released by readers of a reader-writer lock, which only such locks
// need, lives in a side table (sync_vars.cpp), found while
// `readers_released` is set.
struct alignas(64) SyncVar {
  uintptr_t addr;
  SpinLock lock;
  // Set when the memory was freed and the variable left the table: a
  // thread holding a pointer to it looks the address up again.
  std::atomic<bool> forgotten{false};
  // Set (under `lock`) once a reader of a reader-writer lock released here:
  // until then nobody looks for the readers' clock.
  std::atomic<bool> readers_released{false};
  // Bumped (under `lock`) each time the clock or the readers' clock
  // changes, so that a thread that already took this version of the clock
  // can tell that an acquire has nothing new to take (AcquireCache) without
  // the lock.
  std::atomic<uint32_t> version{0};
  std::atomic<SyncVar *> next;  // written at insertion and when the variable is freed
  // The lockset holding only this lock, once a thread took it alone (0
  // until then): a thread taking one lock finds its lockset here, next to
  // the clock it acquires, without hashing into the lockset table.
  std::atomic<LocksetId> alone{kEmptyLockset};
  SyncClock clock;  // released by writers (and by every non-rwlock release)
};
static_assert(sizeof(SyncVar) == 64, "a synchronization variable is one cache line");

// The clock readers of a reader-writer lock released at `v` (null while
// none did). Under v->lock, or in tests.
const VectorClock *sync_read_clock(const SyncVar *v);

// The versions of synchronization variables a thread already took, for the
// atomic path: a spin loop's acquire loads, and a consumer polling an index
// that did not move, read the same published clock again and again, and each
// merge took the variable's lock (a cache line every spinning thread
// writes). Direct-mapped by variable; a variable used again for another
// address keeps counting versions from where it was, so a stale entry only
// misses.
class AcquireCache {
 public:
  // True when `into_clock` (the thread's own clock) or, when !into_clock,
  // either of the thread's clocks already holds version `version` of v's
  // clock. The thread's clock and its acquire-fence clock only grow, and
  // what the thread's clock holds the fence clock need not.
  bool has(const SyncVar *v, uint32_t version, bool into_clock) const {
    const Entry &e = entries_[index(v)];
    return e.var == v && e.version == version && (e.into_clock || !into_clock);
  }
  void note(const SyncVar *v, uint32_t version, bool into_clock) {
    entries_[index(v)] = {v, version, into_clock};
  }

 private:
  struct Entry {
    const SyncVar *var;
    uint32_t version;
    bool into_clock;
  };
  // 64: a thread that keeps several dozen objects with a mutex each alive
  // and locks them in turn (short_lived_locks: 64) found its entry for an
  // object's lock evicted by the time it came back to it with 16.
  static constexpr uint32_t kEntryBits = 6;
  static constexpr uint32_t kEntries = 1u << kEntryBits;
  static uint32_t index(const SyncVar *v) {
    return static_cast<uint32_t>((reinterpret_cast<uintptr_t>(v) * 0x9e3779b97f4a7c15ull) >> (64 - kEntryBits));
  }
  Entry entries_[kEntries] = {};
};

// The variable at `addr`; null when none exists and `create` is false.
// With `made` (a lock about to be acquired), a variable this call makes is
// noted there as taken: its clocks are empty at the version noted, so the
// maker's acquire right after takes nothing, without the variable's spin
// lock (a release by anyone in between moves the version).
SyncVar *sync_var(uintptr_t addr, bool create, AcquireCache *made = nullptr);

// Starts fetching, for writing, the cache line of the variable at `addr`
// (if it is known), without waiting for it: a lock's variable is asked for
// before the real lock is taken, so that its transfer overlaps the lock's
// own, and the acquire that follows finds it in cache.
// Returns the variable it fetches (null: none known), which may be another
// address's (the first of its chain): the caller checks `addr` and
// `forgotten` before using it, as sync_var's cache of recent variables does.
SyncVar *sync_var_prefetch(uintptr_t addr);

// The lockset {addr} (the variable's `alone`, interned the first time).
LocksetId sync_lockset_alone(SyncVar *v);

// The same as sync_release / sync_acquire below, for a variable already
// looked up (a lock a thread holds keeps its variable).
void sync_release_var(SyncVar *v, const VectorClock &from, bool reader = false);
void sync_acquire_var(SyncVar *v, VectorClock &into, bool readers = false);

// A lock's acquire and release (the held lock keeps its variable). The
// acquire returns the version of the clock it took; the release is given
// it back: when nothing was published at the lock since (the commonest case:
// a lock taken again and again by one thread, an object's lock held around
// each of its updates), what the release publishes is what the releaser's
// clock already covers, and `seen` notes it, so that the same thread's next
// acquire there, if nobody released in between, has nothing to take and
// neither locks the variable nor merges its clock. A reader's acquire took
// only the writers' clock: its release notes nothing.
uint32_t sync_acquire_lock(SyncVar *v, VectorClock &into, bool write_mode, AcquireCache &seen);
void sync_release_lock(SyncVar *v, const VectorClock &from, bool write_mode, uint32_t acquired,
                       AcquireCache &seen);

// An atomic whose releases all come from one thread at a time needs no
// variable (race_bench.txt sections 53 and 55): its 8-byte span's chain head
// holds a compact word instead -- the last releaser's slot T (through its
// snapshot), its epoch e at the release, and a snapshot of its clock whose
// entries other than T's own equal T's clock at e. What a variable would
// publish there is that snapshot with T's entry raised to e. The thread an
// atomic release or acquire comes from, for those rules:
struct AtomicThread {
  Tid slot;
  Clock now;                  // its own entry, B_t(t): the epoch a release publishes
  const VectorClock &clock;   // B_t
  uint32_t &snapshot;         // its current snapshot (0: none yet); RaceThread keeps it
};

// A release by `self` of its own clock at an atomic: a store (`store`: a new
// release sequence) or a read-modify-write (continuing the sequence it read
// from). Rule 1: on a word naming self or nothing (or any word, for a store)
// the word becomes (self, now); otherwise (rule 5: another thread's word, a
// variable already there, a thread out of snapshots) the variable path, as
// sync_release / sync_store_atomic. The caller ticks afterwards, as for any
// release.
void sync_release_atomic(uintptr_t addr, const AtomicThread &self, bool store, AcquireCache &seen);

// A joined thread's current snapshot is no longer its own: words naming it
// keep it alive, nothing else does.
void sync_thread_done(uint32_t snapshot);

// The calling thread ends: the variables it retired but had not yet put in
// the quarantine go there, and those it kept for its next variables go back
// to the free list (sync_vars.cpp's per-thread batches), so that no
// variable stays with a thread that is gone.
void sync_thread_exit();

// How many snapshots are alive (words or threads hold them) and how many
// were ever carved (tests).
size_t sync_snapshots_alive();

// True when the chain head of `addr`'s span is a compact word naming
// `addr` (tests).
bool sync_has_compact_word(uintptr_t addr);

// Publishes `from` (a thread's clock) at `addr`.
void sync_release(uintptr_t addr, const VectorClock &from, bool reader = false);
// An atomic store: it starts a new release sequence, so what earlier
// releases published at `addr` is replaced by `from` (null: by nothing).
void sync_store(uintptr_t addr, const VectorClock *from);
// Takes what was published at `addr` into `into`; with `readers`, also what
// readers of a reader-writer lock published (a writer waits for all readers).
void sync_acquire(uintptr_t addr, VectorClock &into, bool readers = false);

// The atomic path. An atomic store by a thread whose clock is `clock`
// (sync_store of `from`, which that clock covers: the clock itself, the
// clock at its last release fence, or nothing); `seen` notes that the
// thread holds what the variable now publishes.
void sync_store_atomic(uintptr_t addr, const VectorClock *from, AcquireCache &seen);
// An acquire (into_clock: `into` is the thread's clock) or a relaxed load
// (`into` collects clocks for a later acquire fence) at `addr`: takes what
// was published there unless `seen` says this version was taken already.
// `self` and `own` (its clock) let a compact word be answered without its
// snapshot (rules 2 and 3).
void sync_acquire_atomic(uintptr_t addr, VectorClock &into, bool into_clock, AcquireCache &seen, Tid self = 0,
                         const VectorClock *own = nullptr);
// True when sync_acquire_atomic at `addr` (with `into_clock`, `seen`) would
// take nothing and change nothing, as this thread's cache of recent
// variables and the lookup filter tell without a walk: the cached variable's
// current version is one `seen` holds, or no variable or word can be at
// `addr`. False when they do not tell (a compact word, a variable not
// cached, a new version): the caller calls sync_acquire_atomic. A queue's
// index polled by its consumer, and a thread's relaxed loads of an index
// only it stores, end here (RaceEngine::on_atomic_hook).
bool sync_acquire_takes_nothing(uintptr_t addr, bool into_clock, const AcquireCache &seen);

// Forgets every variable in [begin, end) (the memory was freed); each is
// used again for another address after a quarantine.
void sync_forget_range(uintptr_t begin, uintptr_t end);

// How many variables a lookup of `addr` walks past at most: those of its
// 8-byte span (exposed for its tests).
size_t sync_chain_length(uintptr_t addr);

// How many bytes of chain heads were ever carved: 4 KiB and a little per
// page whose first synchronization object was not a lock, 512 bytes and a little
// per page whose first was (tests).
size_t sync_chains_bytes();

// How many variables were ever carved (their memory is never unmapped).
size_t sync_vars_carved();

// The bytes of the lookup filter's buckets (line_buckets.h): a bucket per
// line a variable sits on is written, so each costs the program's peak
// (tests).
size_t sync_filter_bytes();

}  // namespace snag::race
