// Synchronization variables: what a release publishes at an address and an
// acquire of that address takes (happens-before through locks, atomics,
// condition variables, ...).
#include "engines/race/sync_vars.h"

#include "engines/race/line_buckets.h"

#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace snag::race {
namespace {

// Each test uses addresses of its own: the table is process-wide.
constexpr uintptr_t kBase = 0x7000000;

TEST(SyncVars, AcquireTakesWhatAReleasePublished) {
  const uintptr_t m = kBase + 0x000;
  VectorClock t1, t2;
  t1.set(1, 5);
  t2.set(2, 3);
  sync_release(m, t1);
  t1.tick(1);  // after the release: not published
  sync_acquire(m, t2);
  EXPECT_EQ(t2.get(1), 5u);
  EXPECT_EQ(t2.get(2), 3u);
  ASSERT_NE(sync_var(m, false), nullptr);
  EXPECT_EQ(sync_var(m, false)->clock.get(1), 5u);
}

TEST(SyncVars, ReleasesAccumulate) {
  const uintptr_t m = kBase + 0x100;
  VectorClock t1, t2, into;
  t1.set(1, 4);
  t2.set(2, 6);
  sync_release(m, t1);
  sync_release(m, t2);
  sync_acquire(m, into);
  EXPECT_EQ(into.get(1), 4u);
  EXPECT_EQ(into.get(2), 6u);
}

TEST(SyncVars, AcquireOfAnUnknownAddressChangesNothing) {
  const uintptr_t m = kBase + 0x200;
  VectorClock into;
  into.set(0, 2);
  sync_acquire(m, into);
  EXPECT_EQ(into.get(0), 2u);
  EXPECT_EQ(into.size(), 1u);
  EXPECT_EQ(sync_var(m, false), nullptr);  // an acquire creates nothing
}

TEST(SyncVars, ReadersReleaseOnlyToWriters) {
  // A reader-writer lock: a later reader is ordered after writers only; a
  // writer after readers as well.
  const uintptr_t rw = kBase + 0x300;
  VectorClock writer, reader, next_reader, next_writer;
  writer.set(1, 2);
  reader.set(2, 7);
  sync_release(rw, writer);
  sync_release(rw, reader, /*reader=*/true);
  sync_acquire(rw, next_reader, /*readers=*/false);
  EXPECT_EQ(next_reader.get(1), 2u);
  EXPECT_EQ(next_reader.get(2), 0u);
  sync_acquire(rw, next_writer, /*readers=*/true);
  EXPECT_EQ(next_writer.get(1), 2u);
  EXPECT_EQ(next_writer.get(2), 7u);
}

TEST(SyncVars, AnAtomicStoreStartsANewReleaseSequence) {
  const uintptr_t a = kBase + 0x400;
  VectorClock first, second, into;
  first.set(1, 9);
  second.set(2, 4);
  sync_release(a, first);
  sync_store(a, &second);
  sync_acquire(a, into);
  EXPECT_EQ(into.get(1), 0u);  // replaced, not merged
  EXPECT_EQ(into.get(2), 4u);
  // A relaxed store (nothing published) clears it.
  sync_store(a, nullptr);
  VectorClock after;
  sync_acquire(a, after);
  EXPECT_EQ(after.get(2), 0u);
  // A relaxed store to a fresh address makes no variable.
  sync_store(kBase + 0x480, nullptr);
  EXPECT_EQ(sync_var(kBase + 0x480, false), nullptr);
}

TEST(SyncVars, FreeingMemoryForgetsItsVariablesOnly) {
  const uintptr_t inside = kBase + 0x10000, edge = kBase + 0x10ff8, outside = kBase + 0x11000;
  VectorClock c;
  c.set(0, 1);
  for (uintptr_t a : {inside, edge, outside}) sync_release(a, c);
  sync_forget_range(inside, outside);
  EXPECT_EQ(sync_var(inside, false), nullptr);
  EXPECT_EQ(sync_var(edge, false), nullptr);
  ASSERT_NE(sync_var(outside, false), nullptr);
  EXPECT_EQ(sync_var(outside, false)->addr, outside);
  VectorClock into;
  sync_acquire(inside, into);
  EXPECT_EQ(into.get(0), 0u);  // a new object at the old address starts fresh
}

TEST(SyncVars, OneVariablePerAddress) {
  const uintptr_t m = kBase + 0x500;
  SyncVar *v = sync_var(m, true);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(sync_var(m, true), v);
  EXPECT_EQ(sync_var(m, false), v);
  EXPECT_NE(sync_var(m + 8, true), v);
}

// The atomic path's cache (AcquireCache): an acquire of a clock the thread
// already took skips the merge, and anything released there since is taken.
TEST(SyncVars, AnAtomicAcquireTakesEachVersionOnce) {
  const uintptr_t a = kBase + 0x600;
  VectorClock producer, consumer;
  AcquireCache seen;
  producer.set(1, 3);
  sync_store(a, &producer);
  sync_acquire_atomic(a, consumer, true, seen);
  EXPECT_EQ(consumer.get(1), 3u);
  SyncVar *v = sync_var(a, false);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(seen.has(v, v->version.load(), true));
  // Nothing released since: a second acquire has nothing to take. (Changing
  // the variable's clock behind the version's back shows the merge is skipped.)
  v->clock.set(1, 99);
  sync_acquire_atomic(a, consumer, true, seen);
  EXPECT_EQ(consumer.get(1), 3u);
  v->clock.set(1, 3);
  // A release since: the new version is taken.
  producer.set(1, 5);
  sync_release(a, producer);
  EXPECT_FALSE(seen.has(v, v->version.load(), true));
  sync_acquire_atomic(a, consumer, true, seen);
  EXPECT_EQ(consumer.get(1), 5u);
}

TEST(SyncVars, ARelaxedLoadDoesNotStandForAnAcquire) {
  // What a relaxed load took went to the acquire-fence clock, not to the
  // thread's clock: a later acquire of the same version must still merge.
  const uintptr_t a = kBase + 0x700;
  VectorClock producer, clock, fence_clock;
  AcquireCache seen;
  producer.set(1, 4);
  sync_store(a, &producer);
  sync_acquire_atomic(a, fence_clock, false, seen);
  EXPECT_EQ(fence_clock.get(1), 4u);
  EXPECT_EQ(clock.get(1), 0u);
  sync_acquire_atomic(a, clock, true, seen);
  EXPECT_EQ(clock.get(1), 4u);
  // ... and what the thread's clock holds, a relaxed load need not take.
  VectorClock other_fence;
  sync_acquire_atomic(a, other_fence, false, seen);
  EXPECT_EQ(other_fence.get(1), 0u);
}

TEST(SyncVars, AThreadsOwnAtomicStoreIsNotTakenBack) {
  // After its own store the thread holds what the variable publishes.
  const uintptr_t a = kBase + 0x800;
  VectorClock mine;
  AcquireCache seen;
  mine.set(2, 7);
  sync_store_atomic(a, &mine, seen);
  SyncVar *v = sync_var(a, false);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->clock.get(2), 7u);
  EXPECT_TRUE(seen.has(v, v->version.load(), true));
  // A relaxed store clears the clock: also held.
  sync_store_atomic(a, nullptr, seen);
  EXPECT_EQ(v->clock.get(2), 0u);
  EXPECT_TRUE(seen.has(v, v->version.load(), true));
  // A relaxed store where no variable exists makes none.
  sync_store_atomic(kBase + 0x880, nullptr, seen);
  EXPECT_EQ(sync_var(kBase + 0x880, false), nullptr);
}

TEST(SyncVars, AForgottenAddressIsFoundAgainWhenReused) {
  // The bucket filter: after the memory is freed, its bucket may read as
  // empty; a variable made there again must be found.
  const uintptr_t a = kBase + 0x20000;
  VectorClock c, into;
  c.set(3, 2);
  sync_release(a, c);
  sync_forget_range(a, a + 8);
  EXPECT_EQ(sync_var(a, false), nullptr);
  sync_release(a, c);
  ASSERT_NE(sync_var(a, false), nullptr);
  sync_acquire(a, into);
  EXPECT_EQ(into.get(3), 2u);
}

// A program that makes and frees objects holding mutexes: the table stays
// proportional to the variables alive, not to all that were ever made.
TEST(SyncVars, FreedVariablesAreUsedAgain) {
  const uintptr_t base = kBase + 0x100000;
  VectorClock c;
  c.set(1, 1);
  sync_release(base, c);  // the carved count below starts after a first variable
  const size_t carved_before = sync_vars_carved();
  for (uintptr_t i = 1; i <= 20000; ++i) {
    const uintptr_t a = base + i * 64;
    sync_release(a, c);
    sync_forget_range(a, a + 8);
  }
  // The quarantine (1,024) and one run of 512 at most.
  EXPECT_LE(sync_vars_carved() - carved_before, 1024u + 512u);
}

// Thousands freed at once (a vector of atomic flags) wait in the free list,
// whose pops fetch the next one ahead: every one is used again exactly once,
// each for one new address.
TEST(SyncVars, ManyFreedAtOnceAreEachUsedAgainOnce) {
  constexpr uintptr_t kCount = 3000;  // more than the quarantine holds
  const uintptr_t first = kBase + 0x200000;
  const uintptr_t second = kBase + 0x300000;
  VectorClock c;
  c.set(1, 1);
  for (int round = 0; round < 3; ++round) {
    for (uintptr_t i = 0; i < kCount; ++i) sync_release(first + 8 * i, c);
    sync_forget_range(first, first + 8 * kCount);
  }
  const size_t carved_before = sync_vars_carved();
  std::set<SyncVar *> made;
  for (uintptr_t i = 0; i < kCount; ++i) made.insert(sync_var(second + 8 * i, true));
  EXPECT_EQ(made.size(), size_t(kCount));
  EXPECT_EQ(sync_vars_carved(), carved_before);
  for (uintptr_t i = 0; i < kCount; ++i) ASSERT_EQ(sync_var(second + 8 * i, false)->addr, second + 8 * i);
  sync_forget_range(second, second + 8 * kCount);
}

// Variables are retired and taken in per-thread batches (race_bench.txt
// section 60). A thread that ends gives its batches back: every variable it
// forgot is used again after the quarantine, none stays with the thread that
// is gone (fails when sync_thread_exit leaves the batches where they are).
TEST(SyncVars, AnEndedThreadsForgottenVariablesAreUsedAgain) {
  const uintptr_t mine = kBase + 0xc00000, others = kBase + 0xd00000, fresh = kBase + 0xe00000;
  constexpr uintptr_t kMine = 40;  // not a multiple of the batch: some wait in it at the end
  std::set<SyncVar *> retired;
  std::thread thread([&] {
    VectorClock c;
    c.set(1, 1);
    for (uintptr_t i = 0; i < kMine; ++i) {
      sync_release(mine + 64 * i, c);
      retired.insert(sync_var(mine + 64 * i, false));
    }
    sync_forget_range(mine, mine + 64 * kMine);
    sync_thread_exit();
  });
  thread.join();
  ASSERT_EQ(retired.size(), size_t(kMine));
  // More variables than the quarantine holds, freed after them: theirs
  // come out. Then make variables until each of them is used again.
  VectorClock c;
  c.set(1, 1);
  for (uintptr_t i = 0; i < 1100; ++i) sync_release(others + 64 * i, c);
  sync_forget_range(others, others + 64 * 1100);
  uintptr_t made = 0;
  for (; made < 50000 && !retired.empty(); ++made) retired.erase(sync_var(fresh + 64 * made, true));
  EXPECT_TRUE(retired.empty()) << retired.size() << " variables stayed with the thread that ended";
  sync_forget_range(fresh, fresh + 64 * made);
}

// An acquire reads a variable's clock without its lock when no writer is
// there (race_bench.txt section 60): it never takes a clock half written.
// One thread stores clocks whose eight entries are all k, k = 1, 2, ...;
// another acquires (an atomic acquire, a lock's) and must find all eight
// entries equal, never below what it took before (fails when the copy is
// not checked against the lock and version after it is made).
TEST(SyncVars, AnAcquireWithoutTheLockNeverTakesAClockHalfWritten) {
  const uintptr_t a = kBase + 0xf80000, m = kBase + 0xf80040;
  constexpr uint32_t kReads = 300000;
  VectorClock first;
  for (Tid t = 0; t < SyncClock::kInline; ++t) first.set(t, 1);
  sync_store(a, &first);
  sync_release(m, first);
  SyncVar *lock = sync_var(m, false);
  ASSERT_NE(lock, nullptr);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    VectorClock c;
    for (Clock k = 2; !done.load(std::memory_order_relaxed); ++k) {
      for (Tid t = 0; t < SyncClock::kInline; ++t) c.set(t, k);
      sync_store(a, &c);
      sync_release_var(lock, c);
    }
  });
  Clock last = 0, last_lock = 0;
  uint32_t torn = 0, backwards = 0;
  auto check = [&](const VectorClock &into, Clock &before) {
    const Clock k = into.get(0);
    for (Tid t = 1; t < SyncClock::kInline; ++t)
      if (into.get(t) != k) ++torn;
    if (k < before) ++backwards;
    before = k;
  };
  for (uint32_t i = 0; i < kReads; ++i) {
    VectorClock into, into_lock;
    AcquireCache seen;
    sync_acquire_atomic(a, into, true, seen);
    check(into, last);
    sync_acquire_lock(lock, into_lock, true, seen);
    check(into_lock, last_lock);
  }
  done.store(true);
  writer.join();
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(backwards, 0u);
  sync_forget_range(a, m + 8);
}

// A variable used again for another address starts fresh, and nothing that
// still remembers it under its old address (a thread's recent lookups, its
// AcquireCache) takes it for the old one.
TEST(SyncVars, AVariableUsedAgainStartsFreshUnderItsNewAddress) {
  const uintptr_t old_addr = kBase + 0x200000, base = kBase + 0x300000;
  VectorClock c;
  c.set(2, 8);
  AcquireCache seen;
  sync_store_atomic(old_addr, &c, seen);
  SyncVar *v = sync_var(old_addr, false);
  ASSERT_NE(v, nullptr);
  const uint32_t old_version = v->version.load();
  EXPECT_TRUE(seen.has(v, old_version, true));
  // More variables than the quarantine holds, freed after it: it comes out
  // of the quarantine. Then make variables until it is used again.
  for (uintptr_t i = 0; i < 1100; ++i) sync_release(base + i * 64, c);
  sync_forget_range(old_addr, old_addr + 8);
  sync_forget_range(base, base + 1100 * 64);
  uintptr_t new_addr = 0;
  for (uintptr_t i = 0; i < 4096 && !new_addr; ++i)
    if (sync_var(base + 0x80000 + i * 64, true) == v) new_addr = base + 0x80000 + i * 64;
  ASSERT_NE(new_addr, 0u) << "the freed variable was not used again";
  EXPECT_EQ(v->addr, new_addr);
  EXPECT_EQ(v->clock.get(2), 0u);
  EXPECT_FALSE(v->forgotten.load());
  EXPECT_FALSE(seen.has(v, v->version.load(), true));
  EXPECT_EQ(sync_var(old_addr, false), nullptr);
  VectorClock into;
  sync_acquire(old_addr, into);
  EXPECT_EQ(into.get(2), 0u);
  EXPECT_EQ(sync_var(new_addr, false), v);
}

// A thread with clock `c` takes lock `v` and drops it (as a writer or reader).
void take_and_drop(SyncVar *v, VectorClock &c, bool write_mode, AcquireCache &seen) {
  sync_release_lock(v, c, write_mode, sync_acquire_lock(v, c, write_mode, seen), seen);
}

// sync_acquire_lock / sync_release_lock: a thread's release of a lock it
// acquired, with nothing published there in between, is noted as taken; its
// next acquire takes nothing. Anything published in between is taken.
TEST(SyncVars, ALocksLastReleaserIsNotedOnlyWhenItsClockCoversTheVariable) {
  const uintptr_t m = kBase + 0x500000;
  SyncVar *v = sync_var(m, true);
  VectorClock mine, other;
  mine.set(1, 3);
  other.set(2, 9);
  AcquireCache seen, other_seen;
  take_and_drop(v, mine, true, seen);
  EXPECT_TRUE(seen.has(v, v->version.load(), true)) << "nothing was published in between";
  mine.tick(1);
  uint32_t taken = sync_acquire_lock(v, mine, true, seen);  // the shortcut
  EXPECT_EQ(taken, v->version.load());
  // Another thread publishes while this one holds it (an unlock of a lock
  // it did not take): the release must not be noted as covered.
  sync_release(m, other);
  sync_release_lock(v, mine, true, taken, seen);
  EXPECT_FALSE(seen.has(v, v->version.load(), true));
  VectorClock into;
  into.set(1, 1);
  sync_acquire_lock(v, into, true, seen);
  EXPECT_EQ(into.get(2), 9u) << "the other thread's release is taken";
  EXPECT_EQ(into.get(1), 4u);
  // Another thread's acquire and release: the first thread's entry no
  // longer matches, and its next acquire takes the other's clock.
  VectorClock first;
  take_and_drop(v, first, true, seen);
  ASSERT_TRUE(seen.has(v, v->version.load(), true));
  other.set(2, 12);
  take_and_drop(v, other, true, other_seen);
  EXPECT_FALSE(seen.has(v, v->version.load(), true));
  sync_acquire_lock(v, first, true, seen);
  EXPECT_EQ(first.get(2), 12u);
}

// A reader's acquire takes only the writers' clock: its release is not
// noted, and a writer after readers still takes what they released.
TEST(SyncVars, AReadersReleaseOfALockIsNeverNotedAsCovered) {
  SyncVar *v = sync_var(kBase + 0x500100, true);
  VectorClock writer, reader;
  AcquireCache writer_seen, reader_seen;
  writer.set(1, 2);
  take_and_drop(v, writer, true, writer_seen);
  reader.set(2, 5);
  take_and_drop(v, reader, false, reader_seen);
  EXPECT_FALSE(reader_seen.has(v, v->version.load(), true));
  ASSERT_NE(sync_read_clock(v), nullptr);
  EXPECT_EQ(sync_read_clock(v)->get(2), 5u);
  sync_acquire_lock(v, writer, true, writer_seen);
  EXPECT_EQ(writer.get(2), 5u) << "a writer waits for the readers";
}

// A lock's variable made by the thread about to acquire it (sync_var with
// `made`) is noted as taken at the version it was made with: its clocks are
// empty then. A release by another thread before that acquire (an unlock of
// a lock it did not take) moves the version, and the acquire takes it.
TEST(SyncVars, AFreshLockVariableIsNotedAsTakenOnlyUntilSomeoneReleasesThere) {
  const uintptr_t m = kBase + 0x600000, n = kBase + 0x600100;
  AcquireCache seen;
  SyncVar *v = sync_var(m, true, &seen);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(seen.has(v, v->version.load(), true));
  VectorClock mine;
  mine.set(1, 4);
  const uint32_t taken = sync_acquire_lock(v, mine, true, seen);
  EXPECT_EQ(taken, v->version.load());
  // An existing variable is not noted again: found, not made.
  AcquireCache other_seen;
  EXPECT_EQ(sync_var(m, true, &other_seen), v);
  EXPECT_FALSE(other_seen.has(v, v->version.load(), true));
  // Made, then released at by another thread before the maker's acquire.
  SyncVar *w = sync_var(n, true, &seen);
  VectorClock other;
  other.set(2, 9);
  sync_release(n, other);
  VectorClock into;
  sync_acquire_lock(w, into, true, seen);
  EXPECT_EQ(into.get(2), 9u) << "the other thread's release is taken";
}

// A variable used again for another lock is noted only at the version it
// was made afresh with: what it published under its old address is gone
// (reuse), and a thread's old entry for it does not match the new version.
TEST(SyncVars, ALockVariableUsedAgainIsNotedAtItsFreshVersion) {
  const uintptr_t old_addr = kBase + 0x700000, base = kBase + 0x740000;
  VectorClock c;
  c.set(3, 7);
  sync_release(old_addr, c);
  SyncVar *v = sync_var(old_addr, false);
  ASSERT_NE(v, nullptr);
  sync_forget_range(old_addr, old_addr + 8);
  for (uintptr_t i = 0; i < 1100; ++i) sync_release(base + i * 64, c);
  sync_forget_range(base, base + 1100 * 64);
  AcquireCache seen;
  uintptr_t new_addr = 0;
  for (uintptr_t i = 0; i < 4096 && !new_addr; ++i)
    if (sync_var(base + 0x80000 + i * 64, true, &seen) == v) new_addr = base + 0x80000 + i * 64;
  ASSERT_NE(new_addr, 0u) << "the freed variable was not used again";
  EXPECT_TRUE(seen.has(v, v->version.load(), true));
  EXPECT_EQ(v->clock.get(3), 0u);
}

// The layout the lock path relies on: variables never share a cache line,
// and what a lock and an unlock write sits in one line.
TEST(SyncVars, EachVariableHasItsOwnCacheLines) {
  const uintptr_t base = kBase + 0x30000;
  SyncVar *previous = nullptr;
  for (uintptr_t i = 0; i < 600; ++i) {  // more than one carved run
    SyncVar *v = sync_var(base + i * 8, true);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(v) % 64, 0u);
    if (previous) {
      uintptr_t gap = reinterpret_cast<uintptr_t>(v) > reinterpret_cast<uintptr_t>(previous)
                          ? reinterpret_cast<uintptr_t>(v) - reinterpret_cast<uintptr_t>(previous)
                          : reinterpret_cast<uintptr_t>(previous) - reinterpret_cast<uintptr_t>(v);
      EXPECT_GE(gap, sizeof(SyncVar));
    }
    previous = v;
  }
  SyncVar *v = sync_var(base, false);
  auto line = [&](const void *p) { return reinterpret_cast<uintptr_t>(p) / 64; };
  EXPECT_EQ(line(&v->lock), line(v));
  EXPECT_EQ(line(&v->version), line(v));
  EXPECT_EQ(line(&v->forgotten), line(v));
  EXPECT_EQ(line(&v->clock), line(v));
}

// The per-thread cache of recent variables is direct-mapped and small: many
// more addresses than it holds evict each other, and every lookup still
// finds its own variable (and a new variable, not a stale entry, after the
// memory was freed and used again).
TEST(SyncVars, RecentVariablesEvictEachOtherWithoutMixingUp) {
  const uintptr_t base = kBase + 0x40000;
  constexpr uintptr_t kCount = 4096;
  SyncVar *made[kCount];
  for (uintptr_t i = 0; i < kCount; ++i) {
    VectorClock c;
    c.set(1, static_cast<Clock>(i + 1));
    made[i] = sync_var(base + i * 64, true);
    sync_release_var(made[i], c);
  }
  for (int round = 0; round < 2; ++round)
    for (uintptr_t i = 0; i < kCount; ++i) {
      SyncVar *v = sync_var(base + i * 64, round == 0);
      ASSERT_EQ(v, made[i]) << i;
      ASSERT_EQ(v->addr, base + i * 64);
      VectorClock into;
      sync_acquire(base + i * 64, into);
      ASSERT_EQ(into.get(1), i + 1) << i;
    }
  // Freed while its entry is cached: found anew, starting fresh.
  ASSERT_EQ(sync_var(base, false), made[0]);
  sync_forget_range(base, base + 8);
  EXPECT_EQ(sync_var(base, false), nullptr);
  SyncVar *fresh = sync_var(base, true);
  EXPECT_NE(fresh, made[0]);
  EXPECT_EQ(fresh->clock.get(1), 0u);
  EXPECT_EQ(sync_var(base, false), fresh);
  // Prefetching (known, unknown and freed addresses) changes nothing.
  sync_var_prefetch(base);
  sync_var_prefetch(base + 64);
  sync_var_prefetch(kBase + 0x7fff0);
  EXPECT_EQ(sync_var(base, false), fresh);
  EXPECT_EQ(sync_var(kBase + 0x7fff0, false), nullptr);
}

// A lookup walks the variables of its own span only (16 bytes), however
// many are alive: a thread pool's test that checks a parallel loop keeps two
// million atomics, and when chains were the buckets of one table of 16,384,
// chosen by line, each held 128 of them and lookups took over half the run.
TEST(SyncVars, ALookupWalksItsOwnLinesVariablesOnly) {
  constexpr uintptr_t kArray = 0x7f2234567000;
  constexpr uintptr_t kLines = 40000;  // more lines than the old table had buckets
  VectorClock c;
  c.set(1, 1);
  for (uintptr_t i = 0; i < kLines; ++i) sync_release(kArray + 64 * i + 8 * (i % 8), c);
  size_t longest = 0;
  for (uintptr_t i = 0; i < kLines; ++i) {
    const uintptr_t a = kArray + 64 * i + 8 * (i % 8);
    const size_t length = sync_chain_length(a);
    if (length > longest) longest = length;
    ASSERT_NE(sync_var(a, false), nullptr) << i;
    ASSERT_EQ(sync_var(a, false)->addr, a);
  }
  EXPECT_EQ(longest, 1u);
  sync_forget_range(kArray, kArray + 64 * kLines);
  EXPECT_EQ(sync_var(kArray, false), nullptr);
  EXPECT_EQ(sync_chain_length(kArray + 64 * (kLines - 1)), 0u);
}

// In an array of 8-byte atomics, each with a variable (a parallel loop's
// flags), a lookup walks past no other: every variable walked past is a
// cache miss when millions are alive. (Chains of two with 16-byte spans;
// spans are 8 bytes since section 55, one compact word per atomic.)
TEST(SyncVars, AnArrayOfAtomicsKeepsChainsOfOne) {
  constexpr uintptr_t kArray = 0x7f2244567000;
  constexpr uintptr_t kAtomics = 4096;
  VectorClock c;
  c.set(1, 1);
  for (uintptr_t i = 0; i < kAtomics; ++i) sync_release(kArray + 8 * i, c);
  size_t longest = 0;
  for (uintptr_t i = 0; i < kAtomics; ++i) {
    const size_t length = sync_chain_length(kArray + 8 * i);
    if (length > longest) longest = length;
    ASSERT_EQ(sync_var(kArray + 8 * i, false)->addr, kArray + 8 * i);
  }
  EXPECT_EQ(longest, 1u);
  sync_forget_range(kArray, kArray + 8 * kAtomics);
  EXPECT_EQ(sync_chain_length(kArray), 0u);
  EXPECT_EQ(sync_var(kArray + 8 * (kAtomics - 1), false), nullptr);
}

// A line's variables share chains two by two: each is still found by its own
// address, and freeing part of a line forgets those inside the freed range
// only (the range's probe starts at the span of its first byte, which here
// holds a variable outside the range too).
TEST(SyncVars, VariablesOfOneLineAreFoundAndForgottenEachByItsAddress) {
  const uintptr_t line = kBase + 0x90000;
  SyncVar *vars[8];
  for (uintptr_t i = 0; i < 8; ++i) vars[i] = sync_var(line + 8 * i, true);
  for (uintptr_t i = 0; i < 8; ++i) {
    ASSERT_NE(vars[i], nullptr);
    EXPECT_EQ(vars[i]->addr, line + 8 * i);
    EXPECT_EQ(sync_var(line + 8 * i, false), vars[i]);
  }
  sync_forget_range(line + 24, line + 40);  // granules 3 and 4
  for (uintptr_t i = 0; i < 8; ++i) {
    SyncVar *v = sync_var(line + 8 * i, false);
    if (i == 3 || i == 4) {
      EXPECT_EQ(v, nullptr) << i;
    } else {
      EXPECT_EQ(v, vars[i]) << i;
    }
  }
}


// A variable is one cache line (64 bytes, not two): a program with an
// atomic per element of a large array keeps one per element (section 53).
TEST(SyncVars, AVariableTakesOneCacheLine) {
  EXPECT_EQ(sizeof(SyncVar), 64u);
  const uintptr_t base = kBase + 0x900000;
  SyncVar *v = sync_var(base, true);
  ASSERT_NE(v, nullptr);
  auto line = [&](const void *p) { return reinterpret_cast<uintptr_t>(p) / 64; };
  // All that a lock, an unlock and a lookup read or write, in the one line.
  EXPECT_EQ(line(&v->next), line(v));
  EXPECT_EQ(line(&v->alone), line(v));
  EXPECT_EQ(line(reinterpret_cast<const char *>(&v->clock) + sizeof v->clock - 1), line(v));
  sync_forget_range(base, base + 8);
}

// A variable's clock keeps eight entries inline and more in an array whose
// capacity follows from its size: releases and stores of clocks longer than
// eight, and growing past the array's capacity, keep every entry; a store
// of a shorter clock zeroes the rest.
TEST(SyncVars, AClockOfMoreThanEightThreadsKeepsEveryEntry) {
  const uintptr_t m = kBase + 0x910000;
  VectorClock a, b, c, into;
  for (Tid t = 0; t < 6; ++t) a.set(t, 10 + t);
  sync_release(m, a);
  b.set(11, 111);  // inline -> an array of 16: the first six entries move
  sync_release(m, b);
  c.set(40, 7);  // an array of 16 -> 64
  sync_release(m, c);
  sync_acquire(m, into);
  for (Tid t = 0; t < 6; ++t) EXPECT_EQ(into.get(t), 10u + t) << t;
  EXPECT_EQ(into.get(8), 0u);
  EXPECT_EQ(into.get(11), 111u);
  EXPECT_EQ(into.get(40), 7u);
  EXPECT_EQ(into.get(41), 0u);
  SyncVar *v = sync_var(m, false);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->clock.get(40), 7u);
  VectorClock shorter;
  shorter.set(3, 5);
  sync_store(m, &shorter);
  EXPECT_EQ(v->clock.get(3), 5u);
  EXPECT_EQ(v->clock.get(4), 0u);
  EXPECT_EQ(v->clock.get(40), 0u);
  sync_store(m, nullptr);
  EXPECT_EQ(v->clock.get(3), 0u);
  sync_forget_range(m, m + 8);
}

// The readers' clock lives beside the variable (sync_vars.cpp): a variable
// used again for another address after its readers released finds no
// readers' clock, and a writer there takes nothing the old readers
// released.
TEST(SyncVars, AVariableUsedAgainHasNoReadersClockOfItsOldAddress) {
  constexpr uintptr_t kCount = 3000;  // more than the quarantine holds
  const uintptr_t first = kBase + 0xa00000, second = kBase + 0xb00000;
  VectorClock reader;
  reader.set(3, 9);
  for (uintptr_t i = 0; i < kCount; ++i) sync_release(first + 8 * i, reader, /*reader=*/true);
  ASSERT_NE(sync_read_clock(sync_var(first, false)), nullptr);
  sync_forget_range(first, first + 8 * kCount);
  for (uintptr_t i = 0; i < kCount; ++i) {
    SyncVar *v = sync_var(second + 8 * i, true);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(sync_read_clock(v), nullptr);
    VectorClock writer;
    AcquireCache seen;
    sync_acquire_lock(v, writer, true, seen);
    sync_acquire(second + 8 * i, writer, /*readers=*/true);
    ASSERT_EQ(writer.get(3), 0u) << i;
  }
  // And the readers' clocks made again are each a variable's own.
  VectorClock other;
  other.set(4, 2);
  sync_release(second, other, /*reader=*/true);
  VectorClock writer;
  sync_acquire(second, writer, /*readers=*/true);
  EXPECT_EQ(writer.get(4), 2u);
  EXPECT_EQ(writer.get(3), 0u);
  sync_forget_range(second, second + 8 * kCount);
}

// Atomics without a variable (race_bench.txt sections 53 and 55): a compact
// word in the span's chain head, rules 1-6.
struct Releaser {
  Tid slot;
  VectorClock clock;
  uint32_t snapshot = 0;
  AcquireCache seen;
  explicit Releaser(Tid s, Clock now = 1) : slot(s) { clock.set(s, now); }
  AtomicThread self() { return {slot, clock.get(slot), clock, snapshot}; }
  // A release of its clock at `a`, then the tick every release is followed by.
  void release(uintptr_t a, bool store = false) {
    sync_release_atomic(a, self(), store, seen);
    clock.tick(slot);
  }
  void acquire(uintptr_t a, VectorClock &into, bool into_clock) {
    sync_acquire_atomic(a, into, into_clock, seen, slot, &clock);
  }
};

// Rule 1: a thread's releases at an atomic nobody else released at keep a
// word there (no variable), which publishes its clock at the last of them.
TEST(SyncVars, Rule1AnAtomicReleasedByOneThreadKeepsAWordNotAVariable) {
  const uintptr_t a = kBase + 0xa00000;
  Releaser t(1, 5);
  t.clock.set(3, 2);
  const size_t carved = sync_vars_carved();
  t.release(a);         // at 5
  t.release(a);         // at 6 (an RMW continuing its own sequence)
  t.release(a, true);   // at 7 (a store)
  EXPECT_TRUE(sync_has_compact_word(a));
  EXPECT_EQ(sync_var(a, false), nullptr);
  EXPECT_EQ(sync_vars_carved(), carved);
  Releaser other(2);
  other.acquire(a, other.clock, true);
  EXPECT_EQ(other.clock.get(1), 7u);  // its last release, not one after it
  EXPECT_EQ(other.clock.get(3), 2u);
  EXPECT_EQ(other.clock.get(2), 1u);
  sync_forget_range(a, a + 8);
  sync_thread_done(t.snapshot);
}

// Rule 2: the releaser's own acquire there takes nothing (a relaxed load
// leaves its fence clock empty). Rule 3 (its clock holds its own entry
// above e) says the same: taken out alone, rule 2 is not missed.
TEST(SyncVars, Rule2AThreadsOwnWordIsNotTakenBack) {
  const uintptr_t a = kBase + 0xa00100;
  Releaser t(1, 4);
  t.clock.set(2, 9);
  t.release(a);
  VectorClock fence;
  t.acquire(a, fence, false);
  EXPECT_EQ(fence.size(), 0u);
  t.acquire(a, t.clock, true);
  EXPECT_EQ(t.clock.get(1), 5u);
  sync_forget_range(a, a + 8);
  sync_thread_done(t.snapshot);
}

// Rule 3: a thread whose clock holds the releaser's entry e or above holds
// all the word publishes: a relaxed load takes nothing into its fence clock,
// at e exactly too (fails with the check taken out, or `>=` made `>`).
TEST(SyncVars, Rule3AnAcquirerThatSawTheReleaseTakesNothing) {
  const uintptr_t a = kBase + 0xa00200;
  Releaser t(1, 4);
  t.clock.set(3, 6);
  t.release(a);  // at 4
  Releaser reader(2);
  reader.clock.set(1, 4);  // ordered after the release at 4 by some other path
  reader.clock.set(3, 6);
  VectorClock fence;
  reader.acquire(a, fence, false);
  EXPECT_EQ(fence.size(), 0u);
  // One that did not see it takes it.
  Releaser late(4);
  late.clock.set(1, 3);
  late.acquire(a, fence, false);
  EXPECT_EQ(fence.get(1), 4u);
  EXPECT_EQ(fence.get(3), 6u);
  sync_forget_range(a, a + 8);
  sync_thread_done(t.snapshot);
}

// Rule 4: what a word publishes is the releaser's clock at that release,
// even after its clock grew by an acquire: a release after the growth names
// a new snapshot, and an acquire of the earlier word must not take what the
// releaser acquired later (fails with the thread's current clock in place
// of the snapshot: an edge that does not exist).
TEST(SyncVars, Rule4AWordPublishesTheReleasersClockAtItsRelease) {
  const uintptr_t a = kBase + 0xa00300;
  const uintptr_t b = kBase + 0xa00308;
  const size_t alive = sync_snapshots_alive();
  Releaser t(1, 10);
  t.clock.set(3, 5);
  t.release(a);  // at 10, thread 3 at 5
  const uint32_t first = t.snapshot;
  t.clock.set(3, 9);  // t acquires something new
  t.release(a + 16);  // a release elsewhere at 11 (not an acquire's concern)
  t.release(b);       // at 12, thread 3 at 9
  EXPECT_NE(t.snapshot, first);
  EXPECT_EQ(sync_snapshots_alive(), alive + 2);
  Releaser u(2);
  u.acquire(a, u.clock, true);
  EXPECT_EQ(u.clock.get(1), 10u);
  EXPECT_EQ(u.clock.get(3), 5u);
  u.acquire(b, u.clock, true);
  EXPECT_EQ(u.clock.get(1), 12u);
  EXPECT_EQ(u.clock.get(3), 9u);
  // The first snapshot lives while a word names it: a new release at a
  // moves it to the current one, and the first goes.
  t.release(a);
  EXPECT_EQ(sync_snapshots_alive(), alive + 1);
  sync_forget_range(a, a + 24);
  EXPECT_EQ(sync_snapshots_alive(), alive + 1);  // the thread's own
  sync_thread_done(t.snapshot);
  EXPECT_EQ(sync_snapshots_alive(), alive);
}

// Rule 5: a read-modify-write by another thread continues the sequence: the
// atomic gets a variable holding the first releaser's clock joined with the
// second's (fails with the word simply replaced: the first edge lost).
// A store by another thread starts a new sequence: the variable (section 55:
// a word moving between threads costs more than a variable) holds the
// storer's clock only.
TEST(SyncVars, Rule5AnotherThreadsReadModifyWriteMakesAVariableOfBoth) {
  const uintptr_t a = kBase + 0xa00400;
  const uintptr_t s = kBase + 0xa00410;
  Releaser t(1, 3), u(2, 7);
  t.clock.set(4, 8);
  t.release(a);  // at 3
  u.release(a);  // at 7
  EXPECT_FALSE(sync_has_compact_word(a));
  ASSERT_NE(sync_var(a, false), nullptr);
  Releaser r(3);
  r.acquire(a, r.clock, true);
  EXPECT_EQ(r.clock.get(1), 3u);
  EXPECT_EQ(r.clock.get(4), 8u);
  EXPECT_EQ(r.clock.get(2), 7u);
  t.release(s, true);
  EXPECT_TRUE(sync_has_compact_word(s));
  u.release(s, true);
  EXPECT_FALSE(sync_has_compact_word(s));
  Releaser q(5);
  q.acquire(s, q.clock, true);
  EXPECT_EQ(q.clock.get(2), 8u);
  EXPECT_EQ(q.clock.get(1), 0u);
  sync_forget_range(a, a + 32);
  sync_thread_done(t.snapshot);
  sync_thread_done(u.snapshot);
}

// Anything but the atomic path needs a variable: a lock, a futex, a fenced
// relaxed release at a word's address (or at the other half of its span)
// makes one holding what the word published.
TEST(SyncVars, Rule5AVariableMadeAtAWordsAddressKeepsWhatItPublished) {
  const uintptr_t a = kBase + 0xa00500;
  Releaser t(1, 6);
  t.clock.set(3, 4);
  t.release(a);  // at 6
  VectorClock other;
  other.set(2, 5);
  sync_release(a + 4, other);  // the span's other half
  EXPECT_FALSE(sync_has_compact_word(a));
  VectorClock into;
  sync_acquire(a, into);
  EXPECT_EQ(into.get(1), 6u);
  EXPECT_EQ(into.get(3), 4u);
  EXPECT_EQ(into.get(2), 0u);
  VectorClock into2;
  sync_acquire(a + 4, into2);
  EXPECT_EQ(into2.get(2), 5u);
  EXPECT_EQ(into2.get(1), 0u);
  // A futex woken at a word's address takes it too, without a variable.
  const uintptr_t b = kBase + 0xa00508;
  t.release(b);  // at 7
  VectorClock woken;
  sync_acquire(b, woken);
  EXPECT_EQ(woken.get(1), 7u);
  EXPECT_TRUE(sync_has_compact_word(b));
  sync_forget_range(a, a + 16);
  sync_thread_done(t.snapshot);
}

// Rule 6: a relaxed store over a word publishes nothing from then on, and
// freeing the memory clears the word (fails with the forget walk leaving
// words: the next atomic at the address would take the freed one's clock).
TEST(SyncVars, Rule6ARelaxedStoreOrAFreeClearsTheWord) {
  const uintptr_t a = kBase + 0xa00600;
  const size_t alive = sync_snapshots_alive();
  Releaser t(1, 2);
  t.release(a);
  AcquireCache seen;
  sync_store_atomic(a, nullptr, seen);
  VectorClock into;
  sync_acquire(a, into);
  EXPECT_EQ(into.size(), 0u);
  t.release(a);
  sync_forget_range(a, a + 8);
  EXPECT_FALSE(sync_has_compact_word(a));
  sync_acquire(a, into);
  EXPECT_EQ(into.size(), 0u);
  sync_thread_done(t.snapshot);
  EXPECT_EQ(sync_snapshots_alive(), alive);
}

// Memory follows live atomics: an array of atomics each released by one of
// two threads keeps words, no variables, and freeing it leaves no snapshot
// but the threads' own.
TEST(SyncVars, AnArrayOfAtomicsOfTwoOwnersKeepsNoVariables) {
  constexpr uintptr_t kArray = 0x7f2255567000;
  constexpr uintptr_t kAtomics = 4096;
  const size_t carved = sync_vars_carved();
  const size_t alive = sync_snapshots_alive();
  Releaser even(1), odd(2);
  for (int round = 0; round < 3; ++round)
    for (uintptr_t i = 0; i < kAtomics; ++i) (i % 2 ? odd : even).release(kArray + 8 * i);
  EXPECT_EQ(sync_vars_carved(), carved);
  EXPECT_EQ(sync_snapshots_alive(), alive + 2);
  VectorClock main_clock;
  for (uintptr_t i = 0; i < kAtomics; ++i) sync_acquire(kArray + 8 * i, main_clock);
  EXPECT_EQ(main_clock.get(1), 3u * kAtomics / 2);
  EXPECT_EQ(main_clock.get(2), 3u * kAtomics / 2);
  sync_forget_range(kArray, kArray + 8 * kAtomics);
  for (uintptr_t i = 0; i < kAtomics; ++i) ASSERT_FALSE(sync_has_compact_word(kArray + 8 * i));
  sync_thread_done(even.snapshot);
  sync_thread_done(odd.snapshot);
  EXPECT_EQ(sync_snapshots_alive(), alive);
}

// A thread that releases again at an atomic after its clock grew (it took
// turns at a flag or an index with another thread) gives the atomic a
// variable rather than a new snapshot per release: still exact (the
// variable holds what the word published), one clock copy per release
// (fails with every such release making a snapshot: a word stays).
TEST(SyncVars, AWordReleasedAgainAfterTheReleasersClockGrewBecomesAVariable) {
  const uintptr_t a = kBase + 0xa00700;
  const size_t alive = sync_snapshots_alive();
  Releaser t(1, 3);
  t.release(a, true);  // at 3
  t.clock.set(2, 5);   // acquired from thread 2
  t.release(a, true);  // at 4
  EXPECT_FALSE(sync_has_compact_word(a));
  ASSERT_NE(sync_var(a, false), nullptr);
  EXPECT_EQ(sync_snapshots_alive(), alive + 1);  // the first, the thread's own
  Releaser u(3);
  u.acquire(a, u.clock, true);
  EXPECT_EQ(u.clock.get(1), 4u);
  EXPECT_EQ(u.clock.get(2), 5u);
  sync_forget_range(a, a + 8);
  sync_thread_done(t.snapshot);
  EXPECT_EQ(sync_snapshots_alive(), alive);
}

// A page whose first variable is a lock's takes narrow chain heads, 512
// bytes (an array of objects with a mutex each: lock_pairs' 10,000 accounts
// took 4 KiB of heads per 4 KiB page of accounts, race_bench.txt section 83,
// then 1 KiB until section 107); a lock shares its chain only with the locks
// starting in its 64-byte span, an atomic released on such a page takes a
// variable (no compact word there) and still publishes its clock,
// and freeing the page forgets them all. A page an atomic came to first
// keeps wide heads and its compact words.
// The filter's buckets are 4 bytes (a spin lock and a 16-bit count), not
// 8: lock_pairs' 10,000 accounts' mutexes write 7,500 of them
// (race_bench.txt section 97).
TEST(SyncVars, TheFiltersBucketsAreFourBytes) { EXPECT_LE(sync_filter_bytes(), size_t(4) << 14); }

// More variables behind one filter bucket than its 16-bit count holds: the
// count stops at the top, and a lookup that finds nothing there does not
// take the bucket's bit away from the variables it still has (a count
// wrapped to 0 would).
TEST(SyncVars, ABucketOfMoreVariablesThanItsCountHoldsKeepsFindingThem) {
  constexpr int kBucketBits = 14;  // sync_vars.cpp's filter
  constexpr uintptr_t kFirstWindow = (uintptr_t(0x7f3000000000) >> 6) >> kBucketBits;
  constexpr uint32_t kBucket = 1234, kVars = 65536;
  auto line_in = [&](uintptr_t window) {
    const uint64_t start = (window * 0x9e3779b97f4a7c15ull) >> (64 - kBucketBits);
    const uint64_t line = (window << kBucketBits) | ((kBucket - start) & ((1u << kBucketBits) - 1));
    return uintptr_t(line << 6);
  };
  std::vector<uintptr_t> addrs;
  for (uintptr_t window = kFirstWindow; addrs.size() < kVars; ++window)
    for (uintptr_t byte = 0; byte < 64 && addrs.size() < kVars; ++byte) addrs.push_back(line_in(window) + byte);
  ASSERT_EQ(line_bucket<kBucketBits>(addrs.front()), kBucket);
  ASSERT_EQ(line_bucket<kBucketBits>(addrs.back()), kBucket);
  AcquireCache seen;
  for (uintptr_t a : addrs) ASSERT_NE(sync_var(a, true, &seen), nullptr);
  // A miss in the same bucket (a line of another window no variable is on).
  const uintptr_t absent = line_in(kFirstWindow + kVars / 64 + 10);
  ASSERT_EQ(line_bucket<kBucketBits>(absent), kBucket);
  EXPECT_EQ(sync_var(absent, false), nullptr);
  EXPECT_EQ(sync_var(absent, false), nullptr);
  for (size_t i = 0; i < addrs.size(); i += 997) ASSERT_NE(sync_var(addrs[i], false), nullptr) << i;
  ASSERT_NE(sync_var(addrs.back(), false), nullptr);
  sync_forget_range(addrs.front() & ~uintptr_t(4095), (addrs.back() | 4095) + 1);
}

TEST(SyncVars, APageOfLocksTakesNarrowHeads) {
  constexpr uintptr_t kArray = 0x7f2266567000;
  constexpr uintptr_t kPages = 16, kStride = 48;  // std::mutex and a balance
  constexpr uintptr_t kLocks = kPages * 4096 / kStride;
  AcquireCache seen;
  const size_t bytes = sync_chains_bytes();
  for (uintptr_t i = 0; i < kLocks; ++i) ASSERT_NE(sync_var(kArray + kStride * i, true, &seen), nullptr);
  EXPECT_LE(sync_chains_bytes() - bytes, kPages * 600);
  for (uintptr_t i = 0; i < kLocks; ++i) {
    // The locks whose 64-byte span is this one's: one or two at a 48-byte stride.
    const uintptr_t span = (kArray + kStride * i) / 64;
    size_t in_span = 0;
    for (uintptr_t j = 0; j < kLocks; ++j) in_span += (kArray + kStride * j) / 64 == span;
    ASSERT_EQ(sync_chain_length(kArray + kStride * i), in_span) << i;
    ASSERT_EQ(sync_var(kArray + kStride * i, false)->addr, kArray + kStride * i);
  }
  // An atomic beside the locks: a variable, which acquires still find.
  const uintptr_t flag = kArray + 40;
  Releaser t(1, 5);
  t.release(flag);
  EXPECT_FALSE(sync_has_compact_word(flag));
  ASSERT_NE(sync_var(flag, false), nullptr);
  EXPECT_EQ(sync_var(flag, false)->addr, flag);
  Releaser other(2);
  other.acquire(flag, other.clock, true);
  EXPECT_EQ(other.clock.get(1), 5u);
  EXPECT_EQ(sync_chain_length(flag), 3u);  // the flag and the locks at 0 and 48 share a 64-byte span
  sync_forget_range(kArray, kArray + kPages * 4096);
  for (uintptr_t i = 0; i < kLocks; ++i) ASSERT_EQ(sync_var(kArray + kStride * i, false), nullptr) << i;
  EXPECT_EQ(sync_var(flag, false), nullptr);
  // A page an atomic came to first: wide heads, a word.
  const uintptr_t atomic_page = kArray + kPages * 4096 + 4096;
  const size_t wide_bytes = sync_chains_bytes();
  t.release(atomic_page);
  EXPECT_TRUE(sync_has_compact_word(atomic_page));
  EXPECT_GE(sync_chains_bytes() - wide_bytes, 4096u);
  sync_forget_range(atomic_page, atomic_page + 8);
  sync_thread_done(t.snapshot);
}

}  // namespace
}  // namespace snag::race
