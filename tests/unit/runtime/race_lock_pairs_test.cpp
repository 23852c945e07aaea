// The table of two-lock sets (lock_pairs.h): a pair of one-lock sets' ids
// gets one index whatever the order and whichever thread asks, through the
// index's growth, and its members back. The ids here are made up (from 3
// million on), so other tests' pairs do not interfere.
#include "engines/race/lock_pairs.h"

#include <gtest/gtest.h>

#include "engines/race/lockset.h"

#include <sys/mman.h>
#include <unistd.h>

#include <stdio.h>

#include <iterator>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace snag::race {
namespace {

constexpr uint32_t kBase = 3000000;

TEST(LockPairs, APairHasOneIndexWhateverTheOrderAndGivesItsMembersBack) {
  const uint32_t first = lock_pair_index(kBase + 7, kBase + 3);
  EXPECT_NE(first, kNoLockPair);
  EXPECT_EQ(lock_pair_index(kBase + 3, kBase + 7), first);
  const uint32_t other = lock_pair_index(kBase + 3, kBase + 8);
  EXPECT_NE(other, first);
  uint32_t low, high;
  lock_pair_members(first, &low, &high);
  EXPECT_EQ(low, kBase + 3);
  EXPECT_EQ(high, kBase + 7);
}

// 100,000 pairs of neighbours (as std::scoped_lock over v[i], v[i + 1]
// makes): each its own index, found again after the index grew past it,
// and the index at most three quarters full but not more than twice what
// that needs.
TEST(LockPairs, ManyPairsKeepTheirIndexesAsTheIndexGrows) {
  constexpr uint32_t kPairs = 100000;
  std::vector<uint32_t> got(kPairs);
  std::set<uint32_t> distinct;
  for (uint32_t i = 0; i < kPairs; ++i) {
    got[i] = lock_pair_index(kBase + 100 + i, kBase + 101 + i);
    ASSERT_NE(got[i], kNoLockPair);
    distinct.insert(got[i]);
  }
  EXPECT_EQ(distinct.size(), kPairs);
  for (uint32_t i = 0; i < kPairs; ++i) {
    ASSERT_EQ(lock_pair_index(kBase + 101 + i, kBase + 100 + i), got[i]);
    uint32_t low, high;
    lock_pair_members(got[i], &low, &high);
    ASSERT_EQ(low, kBase + 100 + i);
    ASSERT_EQ(high, kBase + 101 + i);
  }
  const uint32_t slots = lock_pair_index_slots();
  EXPECT_GE(uint64_t(slots) * 3, uint64_t(kPairs) * 4);
  EXPECT_LE(slots, 4 * kPairs);
}

// An outgrown index stays mapped for readers still probing it, but its
// pages go back to the kernel: the index's memory follows the pairs kept.
TEST(LockPairs, AnOutgrownIndexGivesItsPagesBack) {
  uint32_t next = kBase + 500000;
  lock_pair_index(next, next + 1);
  const void *old = lock_pair_index_memory();
  const uint32_t slots = lock_pair_index_slots();
  while (lock_pair_index_memory() == old) {
    lock_pair_index(next, next + 1);
    ++next;
  }
  const size_t page = sysconf(_SC_PAGESIZE);
  const size_t pages = sizeof(uint32_t) * size_t(slots) / page;  // its slots' whole pages
  std::vector<unsigned char> resident(pages);
  ASSERT_EQ(mincore(const_cast<void *>(old), pages * page, resident.data()), 0);
  for (size_t i = 0; i < pages; ++i) EXPECT_EQ(resident[i] & 1, 0) << "page " << i << " of " << pages;
}

// The process's peak and current resident memory in KiB (0, 0 if unknown).
// The current from the page tables (smaps_rollup), which is exact; status's
// counters may lag by a few hundred KiB. The peak has no other source.
std::pair<size_t, size_t> peak_and_resident_kb() {
  size_t peak = 0, now = 0;
  char line[256];
  if (FILE *f = fopen("/proc/self/status", "r")) {
    while (fgets(line, sizeof line, f)) sscanf(line, "VmHWM: %zu", &peak);
    fclose(f);
  }
  if (FILE *f = fopen("/proc/self/smaps_rollup", "r")) {
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "Rss: %zu", &now) == 1) break;
    fclose(f);
  }
  return {peak, now};
}

// An outgrown index's pages go back before the new index is built: the two
// are never in memory at once (race_bench.txt section 79: lock_pairs' peak
// held both at each sweep and growth). Measured as the process's peak
// resident memory over one growth, from a peak reset to what it holds.
TEST(LockPairs, TheOutgrownIndexIsGivenBackBeforeTheNewOneIsBuilt) {
  uint32_t next = kBase + 1500000;
  while (lock_pair_index_slots() < (1u << 20)) {
    ASSERT_NE(lock_pair_index(next, next + 1), kNoLockPair) << lock_pairs_kept() << " kept";
    ++next;
  }
  const void *old = lock_pair_index_memory();
  const size_t old_kb = sizeof(uint32_t) * size_t(lock_pair_index_slots()) / 1024;
  FILE *clear = fopen("/proc/self/clear_refs", "w");
  if (!clear) GTEST_SKIP() << "no /proc/self/clear_refs to reset the peak";
  const bool reset = fputs("5", clear) >= 0;
  fclose(clear);
  if (!reset || peak_and_resident_kb().first == 0) GTEST_SKIP() << "the peak cannot be reset";
  while (lock_pair_index_memory() == old) {
    ASSERT_NE(lock_pair_index(next, next + 1), kNoLockPair) << lock_pairs_kept() << " kept";
    ++next;
  }
  const auto [peak, now] = peak_and_resident_kb();
  EXPECT_LT(peak, now + old_kb / 2) << "the outgrown index took " << old_kb << " KiB";
}

constexpr uint32_t kMeasuredPairs = 1u << 16;

// The process's resident memory that `add` (adding kMeasuredPairs new
// pairs each call) took, in bytes a pair, measured between two growths of
// the index (whose pages the growth touched): the index is grown to 2^18
// slots first (pairs of made-up ids from `next` on), and 65,536 pairs fit
// without a growth at least once in two tries (a growth leaves room for
// 3/8 of 2^18 slots or more). 0 when unknown (no VmRSS), ~0 when the index
// grew at every try.
template <typename Add>
size_t resident_bytes_a_pair(uint32_t &next, Add add) {
  while (lock_pair_index_slots() < (1u << 18)) {
    if (lock_pair_index(next, next + 1) == kNoLockPair) return ~size_t(0);
    ++next;
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    const void *index = lock_pair_index_memory();
    const size_t start_kb = peak_and_resident_kb().second;
    if (start_kb == 0) return 0;
    add();
    if (lock_pair_index_memory() != index) continue;  // it grew: the new index's pages counted
    return (peak_and_resident_kb().second - start_kb) * 1024 / kMeasuredPairs;
  }
  return ~size_t(0);
}

// A pair kept costs its key (8 bytes) and its share of the index, nothing
// more: a list of the pairs kept took 4 bytes more each (race_bench.txt
// section 79).
TEST(LockPairs, APairAddedTakesItsKeyAndNoMore) {
  uint32_t next = kBase + 4000000;
  const size_t bytes = resident_bytes_a_pair(next, [&next] {
    for (uint32_t i = 0; i < kMeasuredPairs; ++i, ++next) ASSERT_NE(lock_pair_index(next, next + 1), kNoLockPair);
  });
  if (bytes == 0) GTEST_SKIP() << "no VmRSS";
  EXPECT_LT(bytes, 10u) << "bytes a pair (~0: the index grew at every try)";
}

// A pair of two one-lock sets whose ids are below 2^15 (a program with
// fewer than 32,768 locks: lock_pairs' 10,000 accounts) keeps its key in 4
// bytes, not 8 (race_bench.txt section 101). The ids are made up from
// 16,384 on (below, the unit tests' own one-lock sets).
TEST(LockPairs, APairOfLowIdsTakesFourBytesOfKey) {
  uint32_t next = kBase + 6000000, low = 16384;
  constexpr uint32_t kPartners = 128;
  const size_t bytes = resident_bytes_a_pair(next, [&low] {
    for (uint32_t i = 0; i < kMeasuredPairs; i += kPartners, ++low)
      for (uint32_t partner = 1; partner <= kPartners; ++partner)
        ASSERT_NE(lock_pair_index(low, low + partner), kNoLockPair);
  });
  if (bytes == 0) GTEST_SKIP() << "no VmRSS";
  EXPECT_LT(bytes, 6u) << "bytes a pair (~0: the index grew at every try)";
}

// Pairs on either side of the 4-byte keys' limit (an id of 2^15 or more
// needs 8) give their members back, whatever the order, each under one
// index.
TEST(LockPairs, PairsAtTheLimitOfFourByteKeysGiveTheirMembersBack) {
  constexpr uint32_t kLimit = 1u << 15;
  const std::pair<uint32_t, uint32_t> pairs[] = {
      {kLimit - 1, kLimit - 2}, {kLimit - 1, 1}, {kLimit, kLimit - 1}, {kLimit, 1}, {kBase + 9000000, kLimit - 1}};
  std::set<uint32_t> distinct;
  for (auto [one, other] : pairs) {
    const uint32_t pair = lock_pair_index(one, other);
    ASSERT_NE(pair, kNoLockPair);
    EXPECT_EQ(lock_pair_index(other, one), pair);
    distinct.insert(pair);
    uint32_t low, high;
    lock_pair_members(pair, &low, &high);
    EXPECT_EQ(low, one < other ? one : other);
    EXPECT_EQ(high, one < other ? other : one);
  }
  EXPECT_EQ(distinct.size(), std::size(pairs));
}

// Two threads adding the same pairs in opposite orders, while the index
// grows under them: every pair gets one index.
TEST(LockPairs, TwoThreadsAddingTheSamePairsAgreeOnTheirIndexes) {
  constexpr uint32_t kPairs = 200000;
  const uint32_t base = kBase + 200000;
  std::vector<uint32_t> forward(kPairs), backward(kPairs);
  std::thread one([&] {
    for (uint32_t i = 0; i < kPairs; ++i) forward[i] = lock_pair_index(base + i, base + i + 1);
  });
  std::thread other([&] {
    for (uint32_t i = kPairs; i-- > 0;) backward[i] = lock_pair_index(base + i + 1, base + i);
  });
  one.join();
  other.join();
  std::set<uint32_t> distinct(forward.begin(), forward.end());
  EXPECT_EQ(distinct.size(), kPairs);
  EXPECT_EQ(forward, backward);
}

// Retiring pairs (race_bench.txt §72). The test's finder names the pairs
// in `g_named`, as the race engine's names those its memory holds.
std::set<uint32_t> g_named;

size_t name_the_tests_pairs(uint32_t pairs, uint64_t *named) {
  for (uint32_t pair : g_named)
    if (pair < pairs) named[pair / 64] |= uint64_t(1) << (pair % 64);
  return 0;
}

// Adds new pairs (made-up one-lock ids from `*next` on) until a sweep ran.
void add_until_a_sweep(uint32_t *next) {
  const uint32_t sweeps = lock_pair_sweeps();
  while (lock_pair_sweeps() == sweeps) {
    ASSERT_NE(lock_pair_index(*next, *next + 1), kNoLockPair);
    *next += 2;
  }
}

class LockPairRetirement : public ::testing::Test {
 protected:
  void SetUp() override {
    g_named.clear();
    set_lock_pair_finder(name_the_tests_pairs);
  }
  void TearDown() override { set_lock_pair_finder(nullptr); }
};

// A pair nothing names is condemned at one sweep and retired at the next:
// it has no members any more, and its two locks held together again get a
// new index. A pair named at each sweep keeps its index and its members.
TEST_F(LockPairRetirement, APairNothingNamesIsRetiredAtTheSecondSweep) {
  uint32_t next = 1000000;
  const uint32_t named = lock_pair_index(900001, 900002), unnamed = lock_pair_index(900003, 900004);
  g_named.insert(named);
  add_until_a_sweep(&next);
  uint32_t low, high;
  lock_pair_members(unnamed, &low, &high);
  EXPECT_EQ(low, 900003u) << "condemned, not retired yet";
  add_until_a_sweep(&next);
  lock_pair_members(unnamed, &low, &high);
  EXPECT_EQ(low, 0u);
  EXPECT_EQ(high, 0u);
  lock_pair_members(named, &low, &high);
  EXPECT_EQ(low, 900001u);
  EXPECT_EQ(high, 900002u);
  EXPECT_EQ(lock_pair_index(900002, 900001), named);
  const uint32_t again = lock_pair_index(900004, 900003);
  EXPECT_NE(again, unnamed) << "a retired index is not given out at once";
  lock_pair_members(again, &low, &high);
  EXPECT_EQ(low, 900003u);
  EXPECT_EQ(high, 900004u);
  EXPECT_EQ(lock_pair_index(900003, 900004), again);
}

// A condemned pair looked up before the next sweep (a thread took the two
// locks again) answers the same two locks: under a new index, since the
// index holds no condemned pair (race_bench.txt section 97). The condemned
// index, written back by a thread that still held it, is found by the next
// sweep and kept, with its members.
TEST_F(LockPairRetirement, ACondemnedPairLookedUpAgainNamesTheSameLocks) {
  uint32_t next = 1100000;
  const uint32_t pair = lock_pair_index(910001, 910002);
  add_until_a_sweep(&next);  // condemned
  const uint32_t again = lock_pair_index(910001, 910002);
  ASSERT_NE(again, kNoLockPair);
  uint32_t low, high;
  lock_pair_members(again, &low, &high);
  EXPECT_EQ(low, 910001u);
  EXPECT_EQ(high, 910002u);
  EXPECT_EQ(lock_pair_index(910002, 910001), again);
  g_named.insert(pair);
  g_named.insert(again);
  add_until_a_sweep(&next);
  lock_pair_members(pair, &low, &high);
  EXPECT_EQ(low, 910001u);
  EXPECT_EQ(high, 910002u);
  lock_pair_members(again, &low, &high);
  EXPECT_EQ(low, 910001u);
  EXPECT_EQ(high, 910002u);
}

// The index rebuilt at a sweep holds the pairs found named, not those it
// condemned: with a quarter of an interval named throughout it fits twice
// an interval's slots (named and the next interval's new pairs at three in
// four), where with the condemned (an interval's worth) it took four times
// (lock_pairs: ~7,500 named, 64Ki slots for 32Ki; race_bench.txt
// section 97).
TEST_F(LockPairRetirement, TheRebuiltIndexHoldsNoCondemnedPairs) {
  uint32_t next = 1650000;
  for (uint32_t i = 0; i < kMinPairsBetweenSweeps / 4; ++i, next += 2) g_named.insert(lock_pair_index(next, next + 1));
  for (int sweep = 0; sweep < 3; ++sweep) add_until_a_sweep(&next);
  EXPECT_GE(lock_pairs_kept(), kMinPairsBetweenSweeps / 4 + kMinPairsBetweenSweeps / 2) << "condemned are kept";
  EXPECT_LE(lock_pair_index_slots(), 2 * kMinPairsBetweenSweeps);
  // Every named pair is still found under its own index.
  for (uint32_t pair : g_named) {
    uint32_t low, high;
    lock_pair_members(pair, &low, &high);
    ASSERT_EQ(lock_pair_index(low, high), pair);
  }
}

// Two indexes of the same two locks (the condemned one a thread still held,
// the new one the same locks taken again got) are one set: their
// intersection keeps both locks, not one.
TEST_F(LockPairRetirement, TwoIndexesOfOnePairIntersectAsThePair) {
  uintptr_t locks_ab[2] = {0x7b0000, 0x7b0040};
  const LocksetId old_id = lockset_intern(locks_ab, 2);
  ASSERT_TRUE(lockset_is_pair(old_id));
  uint32_t next = 1450000;
  add_until_a_sweep(&next);  // condemned
  const LocksetId new_id = lockset_intern(locks_ab, 2);
  ASSERT_TRUE(lockset_is_pair(new_id));
  EXPECT_NE(new_id, old_id) << "the index holds no condemned pair";
  const LocksetId common = lockset_intersect(old_id, new_id);
  EXPECT_TRUE(lockset_contains(common, 0x7b0000));
  EXPECT_TRUE(lockset_contains(common, 0x7b0040));
  EXPECT_TRUE(lockset_contains(lockset_intersect(new_id, old_id), 0x7b0040));
}

// The pair whose addition ran the sweep goes into the index the sweep
// rebuilt: found again, with the same index (not a second one).
TEST_F(LockPairRetirement, ThePairThatRanASweepIsFoundAgain) {
  uint32_t next = 1150000;
  add_until_a_sweep(&next);
  const uint32_t last = next - 2;  // the pair (last, last + 1) ran it
  const uint32_t index = lock_pair_index(last, last + 1);
  g_named.insert(index);
  for (int sweep = 0; sweep < 3; ++sweep) {
    add_until_a_sweep(&next);
    const uint32_t ran = next - 2;
    const uint32_t first = lock_pair_index(ran + 1, ran);
    EXPECT_EQ(lock_pair_index(ran, ran + 1), first);
  }
  EXPECT_EQ(lock_pair_index(last + 1, last), index);
}

// A run holding ever new pairs keeps only those still named and the last
// two sweeps' worth, not every pair it made; so does its index.
TEST_F(LockPairRetirement, PairsKeptFollowThoseNamedNotThoseEverMade) {
  uint32_t next = 1200000;
  for (int sweep = 0; sweep < 8; ++sweep) add_until_a_sweep(&next);
  const uint32_t made = (next - 1200000) / 2;
  EXPECT_GE(made, 7 * kMinPairsBetweenSweeps);
  EXPECT_LE(lock_pairs_kept(), 3 * kMinPairsBetweenSweeps);
  EXPECT_LE(lock_pair_index_slots(), 16 * kMinPairsBetweenSweeps);
}

// The index rebuilt at a sweep leaves room for one interval's new pairs,
// not for as many again as it keeps: with 7/8 of an interval's worth named
// throughout (lock_pairs: accounts' balances name the pairs they were last
// written under), it kept ~15,000 pairs in 64Ki slots (256 KiB) where 32Ki
// hold them and the next interval's (race_bench.txt section 83).
TEST_F(LockPairRetirement, TheRebuiltIndexLeavesRoomForOneIntervalNotAsManyAgain) {
  uint32_t next = 1600000;
  for (uint32_t i = 0; i < kMinPairsBetweenSweeps * 7 / 8; ++i, next += 2) g_named.insert(lock_pair_index(next, next + 1));
  for (int sweep = 0; sweep < 4; ++sweep) add_until_a_sweep(&next);
  // Named, condemned at this sweep, and the one that ran it.
  EXPECT_GE(lock_pairs_kept(), kMinPairsBetweenSweeps * 7 / 8 + kMinPairsBetweenSweeps);
  EXPECT_LE(lock_pair_index_slots(), 4 * kMinPairsBetweenSweeps);
  // It still grows when an interval adds more than that.
  g_named.clear();
  set_lock_pair_finder(nullptr);
  for (uint32_t i = 0; i < 2 * kMinPairsBetweenSweeps; ++i, next += 2) ASSERT_NE(lock_pair_index(next, next + 1), kNoLockPair);
  // At three in four at most over the pairs it holds: the new ones and the
  // named (the condemned are kept, but not in the index).
  EXPECT_GT(uint64_t(lock_pair_index_slots()) * 3,
            (uint64_t(2 * kMinPairsBetweenSweeps) + kMinPairsBetweenSweeps * 7 / 8) * 4);
}

// A retired index is given out again once the sweep after its retirement
// found nothing naming it, not before: it names no locks meanwhile. One that
// sweep finds named (a thread held it in a local across two sweeps and wrote
// it back) stays retired, never another pair's.
TEST_F(LockPairRetirement, ARetiredIndexIsGivenOutAgainOnlyAfterASweepFoundItNowhere) {
  uint32_t next = 1700000;
  const uint32_t reused = lock_pair_index(920001, 920002), written_back = lock_pair_index(920003, 920004);
  add_until_a_sweep(&next);  // condemned
  // The indexes given out before sweep `until` ran (the pair that runs a
  // sweep is given its index after it), and those after.
  std::set<uint32_t> given, after;
  auto add_until = [&](uint32_t until) {
    while (lock_pair_sweeps() < until) {
      const uint32_t pair = lock_pair_index(next, next + 1);
      next += 2;
      (lock_pair_sweeps() < until ? given : after).insert(pair);
    }
  };
  const uint32_t sweeps = lock_pair_sweeps();
  add_until(sweeps + 1);  // retired at this sweep
  uint32_t low, high;
  lock_pair_members(reused, &low, &high);
  EXPECT_EQ(low, 0u);
  g_named.insert(written_back);
  add_until(sweeps + 2);  // free at this one
  EXPECT_EQ(given.count(reused), 0u) << "given out before a sweep found it nowhere";
  for (uint32_t i = 0; i < 2 * kMinPairsBetweenSweeps && !after.count(reused); ++i) {
    after.insert(lock_pair_index(next, next + 1));
    next += 2;
  }
  EXPECT_EQ(after.count(reused), 1u) << "free indexes are given out before new ones";
  lock_pair_members(reused, &low, &high);
  EXPECT_NE(low, 920001u);
  EXPECT_EQ(given.count(written_back) + after.count(written_back), 0u);
  lock_pair_members(written_back, &low, &high);
  EXPECT_EQ(low, 0u);
  EXPECT_EQ(high, 0u);
}

// A run holding ever new pairs gives out indexes from as few pages of keys
// as it keeps pairs: retired ones are given out again, so the indexes ever
// given out stop growing, where every pair it made took a new one.
TEST_F(LockPairRetirement, IndexesGivenOutStopGrowingWhenPairsAreRetired) {
  uint32_t next = 1800000;
  for (int sweep = 0; sweep < 4; ++sweep) add_until_a_sweep(&next);
  const uint32_t given = lock_pair_indexes_given();
  const uint32_t first = next;
  for (int sweep = 0; sweep < 8; ++sweep) add_until_a_sweep(&next);
  EXPECT_GE((next - first) / 2, 8 * kMinPairsBetweenSweeps);
  EXPECT_LE(lock_pair_indexes_given() - given, 2 * kMinPairsBetweenSweeps);
}

// Pairs with 4-byte keys (ids below 2^15) go through the same stages as
// the others: condemned, taken back when found named again, retired, and
// their index given out again (to another such pair) once a sweep found it
// nowhere.
TEST_F(LockPairRetirement, AFourByteKeysPairIsCondemnedTakenBackRetiredAndGivenOutAgain) {
  uint32_t next = 1900000;
  const uint32_t named = lock_pair_index(30001, 30002), written_back = lock_pair_index(30003, 30004),
                 unnamed = lock_pair_index(30005, 30006);
  g_named.insert(named);
  add_until_a_sweep(&next);  // written_back and unnamed condemned
  uint32_t low, high;
  lock_pair_members(unnamed, &low, &high);
  EXPECT_EQ(low, 30005u) << "condemned, not retired yet";
  EXPECT_EQ(high, 30006u);
  g_named.insert(written_back);
  add_until_a_sweep(&next);  // written_back taken back, unnamed retired
  lock_pair_members(written_back, &low, &high);
  EXPECT_EQ(low, 30003u);
  EXPECT_EQ(high, 30004u);
  EXPECT_EQ(lock_pair_index(30004, 30003), written_back);
  lock_pair_members(unnamed, &low, &high);
  EXPECT_EQ(low, 0u);
  EXPECT_EQ(high, 0u);
  add_until_a_sweep(&next);  // unnamed free
  bool given_again = false;
  for (uint32_t other = 30100; other < 31100 && !given_again; ++other) {
    const uint32_t pair = lock_pair_index(30007, other);
    lock_pair_members(pair, &low, &high);
    EXPECT_EQ(low, 30007u);
    EXPECT_EQ(high, other);
    given_again = pair == unnamed;
  }
  EXPECT_TRUE(given_again) << "a free index of a 4-byte key goes to the next such pair";
  EXPECT_EQ(lock_pair_index(30002, 30001), named);
  lock_pair_members(named, &low, &high);
  EXPECT_EQ(low, 30001u);
  EXPECT_EQ(high, 30002u);
}

// A retired pair's id names an empty set (a thread that still held it in
// a local reads no locks, and nothing crashes): no members, no common lock.
TEST_F(LockPairRetirement, ARetiredPairsLocksetHasNoMembers) {
  uintptr_t locks_ab[2] = {0x7a0000, 0x7a0040};
  const LocksetId pair = lockset_intern(locks_ab, 2);
  ASSERT_TRUE(lockset_is_pair(pair));
  uint32_t next = 1400000;
  add_until_a_sweep(&next);
  add_until_a_sweep(&next);
  uintptr_t members[kMaxLocksInSet];
  EXPECT_EQ(lockset_members(pair, members), 0u);
  EXPECT_FALSE(lockset_contains(pair, 0x7a0000));
  const LocksetId a = lockset_intern(&locks_ab[0], 1);
  EXPECT_EQ(lockset_intersect(pair, a), kEmptyLockset);
}

// Without a finder (the unit tests above, a run of another engine) no
// sweep runs.
TEST(LockPairs, NoSweepRunsWithoutAFinder) {
  const uint32_t sweeps = lock_pair_sweeps();
  for (uint32_t i = 0; i < 2 * kMinPairsBetweenSweeps; ++i) lock_pair_index(1500000 + 2 * i, 1500001 + 2 * i);
  EXPECT_EQ(lock_pair_sweeps(), sweeps);
}

}  // namespace
}  // namespace snag::race
