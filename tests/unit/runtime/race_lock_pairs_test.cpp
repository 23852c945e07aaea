// The table of two-lock sets (lock_pairs.h): a pair of one-lock sets' ids
// gets one index whatever the order and whichever thread asks, through the
// index's growth, and its members back. The ids here are made up (from 3
// million on), so other tests' pairs do not interfere.
#include "engines/race/lock_pairs.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <set>
#include <thread>
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

}  // namespace
}  // namespace snag::race
