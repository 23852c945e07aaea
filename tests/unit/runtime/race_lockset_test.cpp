// Interned locksets (RaceTrack's L_t and C_x): equal sets share one id, and
// intersection is what the Shared-Read / Shared-Modify states refine C_x by.
#include "engines/race/lockset.h"

#include <gtest/gtest.h>

#include <vector>

namespace snag::race {
namespace {

// Lock addresses of their own, so other tests' sets do not interfere.
constexpr uintptr_t kA = 0x51000, kB = 0x51040, kC = 0x51080, kD = 0x510c0;

LocksetId set_of(std::vector<uintptr_t> locks) {
  return lockset_intern(locks.data(), static_cast<uint32_t>(locks.size()));
}

std::vector<uintptr_t> members(LocksetId id) {
  const uintptr_t *locks;
  uint32_t n = lockset_members(id, &locks);
  return std::vector<uintptr_t>(locks, locks + n);
}

TEST(Lockset, NoLocksIsTheEmptySet) {
  EXPECT_EQ(set_of({}), kEmptyLockset);
  EXPECT_TRUE(members(kEmptyLockset).empty());
  EXPECT_FALSE(lockset_contains(kEmptyLockset, kA));
}

TEST(Lockset, EqualSetsShareAnIdWhateverTheOrderOrRepeats) {
  LocksetId ab = set_of({kA, kB});
  EXPECT_NE(ab, kEmptyLockset);
  EXPECT_EQ(set_of({kB, kA}), ab);
  EXPECT_EQ(set_of({kB, kA, kB, kA}), ab);
  EXPECT_NE(set_of({kA}), ab);
  EXPECT_NE(set_of({kA, kC}), ab);
  EXPECT_EQ(members(ab), (std::vector<uintptr_t>{kA, kB}));
}

TEST(Lockset, MembersAreSorted) {
  EXPECT_EQ(members(set_of({kD, kB, kC, kA})), (std::vector<uintptr_t>{kA, kB, kC, kD}));
}

TEST(Lockset, Contains) {
  LocksetId bc = set_of({kB, kC});
  EXPECT_TRUE(lockset_contains(bc, kB));
  EXPECT_TRUE(lockset_contains(bc, kC));
  EXPECT_FALSE(lockset_contains(bc, kA));
}

TEST(Lockset, IntersectionKeepsTheCommonLocks) {
  LocksetId ab = set_of({kA, kB}), bc = set_of({kB, kC}), b = set_of({kB});
  EXPECT_EQ(lockset_intersect(ab, bc), b);
  EXPECT_EQ(lockset_intersect(bc, ab), b);
  EXPECT_EQ(lockset_intersect(ab, ab), ab);
  EXPECT_EQ(lockset_intersect(ab, kEmptyLockset), kEmptyLockset);
  EXPECT_EQ(lockset_intersect(kEmptyLockset, ab), kEmptyLockset);
  EXPECT_EQ(lockset_intersect(set_of({kA}), set_of({kC, kD})), kEmptyLockset);
  // A subset is its own intersection with a superset.
  LocksetId abcd = set_of({kA, kB, kC, kD});
  EXPECT_EQ(lockset_intersect(abcd, bc), bc);
  EXPECT_EQ(lockset_intersect(bc, abcd), bc);
}

TEST(Lockset, KeepsAtMostTheFirstSixteenLocksGiven) {
  std::vector<uintptr_t> many;
  for (uintptr_t i = 0; i < kMaxLocksInSet + 4; ++i) many.push_back(0x52000 + 64 * i);
  std::vector<uintptr_t> got = members(set_of(many));
  ASSERT_EQ(got.size(), kMaxLocksInSet);
  EXPECT_EQ(got.front(), 0x52000u);
  EXPECT_EQ(got.back(), 0x52000u + 64 * (kMaxLocksInSet - 1));
}

}  // namespace
}  // namespace snag::race
