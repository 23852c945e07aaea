// Interned locksets (RaceTrack's L_t and C_x): equal sets share one id, and
// intersection is what the Shared-Read / Shared-Modify states refine C_x by.
#include "engines/race/lockset.h"

#include <gtest/gtest.h>

#include <stdio.h>

#include <vector>

namespace snag::race {
namespace {

// Lock addresses of their own, so other tests' sets do not interfere.
constexpr uintptr_t kA = 0x51000, kB = 0x51040, kC = 0x51080, kD = 0x510c0;

LocksetId set_of(std::vector<uintptr_t> locks) {
  return lockset_intern(locks.data(), static_cast<uint32_t>(locks.size()));
}

std::vector<uintptr_t> members(LocksetId id) {
  uintptr_t locks[kMaxLocksInSet];
  uint32_t n = lockset_members(id, locks);
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

// Two-lock sets live in a table of their own (lock_pairs.h), named by their
// locks' one-lock sets; a pair reached from the addresses or from the
// one-lock sets is one set.
TEST(Lockset, APairIsTheSameSetFromItsLocksOrFromTheirOneLockSets) {
  constexpr uintptr_t kX = 0x53000, kY = 0x53040;
  const LocksetId x = set_of({kX}), y = set_of({kY});
  const LocksetId xy = lockset_pair(x, y);
  EXPECT_TRUE(lockset_is_pair(xy));
  EXPECT_FALSE(lockset_is_one_lock(xy));
  EXPECT_TRUE(lockset_is_one_lock(x));
  EXPECT_EQ(lockset_pair(y, x), xy);
  EXPECT_EQ(set_of({kY, kX}), xy);
  EXPECT_EQ(set_of({kX, kY, kX}), xy);
  EXPECT_EQ(lockset_pair(x, x), x);
  EXPECT_EQ(lockset_pair(x, kEmptyLockset), kEmptyLockset);
  EXPECT_EQ(members(xy), (std::vector<uintptr_t>{kX, kY}));
  EXPECT_TRUE(lockset_contains(xy, kX));
  EXPECT_TRUE(lockset_contains(xy, kY));
  EXPECT_FALSE(lockset_contains(xy, kA));
}

// Members stay sorted by address whatever order the one-lock sets were
// made in (their ids order the pair's key, not the addresses).
TEST(Lockset, APairsMembersAreSortedByAddressNotByTheirIds) {
  constexpr uintptr_t kHigh = 0x54040, kLow = 0x54000;
  const LocksetId high = set_of({kHigh});  // the smaller id
  const LocksetId low = set_of({kLow});
  ASSERT_LT(high, low);
  EXPECT_EQ(members(lockset_pair(high, low)), (std::vector<uintptr_t>{kLow, kHigh}));
}

TEST(Lockset, IntersectionOfPairsAndOneLockSets) {
  constexpr uintptr_t kP = 0x55000, kQ = 0x55040, kR = 0x55080, kS = 0x550c0;
  const LocksetId p = set_of({kP}), q = set_of({kQ}), r = set_of({kR});
  const LocksetId pq = set_of({kP, kQ}), pr = set_of({kP, kR}), qr = set_of({kQ, kR}), rs = set_of({kR, kS});
  EXPECT_EQ(lockset_intersect(pq, pr), p);
  EXPECT_EQ(lockset_intersect(pr, qr), r);
  EXPECT_EQ(lockset_intersect(qr, pq), q);
  EXPECT_EQ(lockset_intersect(pq, rs), kEmptyLockset);
  EXPECT_EQ(lockset_intersect(pq, p), p);
  EXPECT_EQ(lockset_intersect(q, pq), q);
  EXPECT_EQ(lockset_intersect(r, pq), kEmptyLockset);
  EXPECT_EQ(lockset_intersect(p, q), kEmptyLockset);
  // With a larger set, through the members: the pair itself, or a pair
  // found again in its table.
  const LocksetId pqr = set_of({kP, kQ, kR}), pqs = set_of({kP, kQ, kS});
  EXPECT_FALSE(lockset_is_pair(pqr));
  EXPECT_FALSE(lockset_is_one_lock(pqr));
  EXPECT_EQ(lockset_intersect(pqr, pq), pq);
  EXPECT_EQ(lockset_intersect(qr, pqr), qr);
  EXPECT_EQ(lockset_intersect(pqr, pqs), pq);
  EXPECT_EQ(lockset_intersect(pqr, rs), r);
  EXPECT_EQ(lockset_intersect(pqs, rs), set_of({kS}));
}

TEST(Lockset, KeepsAtMostTheFirstSixteenLocksGiven) {
  std::vector<uintptr_t> many;
  for (uintptr_t i = 0; i < kMaxLocksInSet + 4; ++i) many.push_back(0x52000 + 64 * i);
  std::vector<uintptr_t> got = members(set_of(many));
  ASSERT_EQ(got.size(), kMaxLocksInSet);
  EXPECT_EQ(got.front(), 0x52000u);
  EXPECT_EQ(got.back(), 0x52000u + 64 * (kMaxLocksInSet - 1));
}

// From the page tables (smaps_rollup), which is exact; statm's counters may
// lag by a few hundred KiB.
size_t resident_bytes() {
  size_t kb = 0;
  if (FILE *f = fopen("/proc/self/smaps_rollup", "r")) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "Rss: %zu", &kb) == 1) break;
    fclose(f);
  }
  return kb * 1024;
}

// A program with a mutex per object takes a one-lock set for each lock
// (lock_pairs: 10,000 accounts). Each takes the lock's address and the next
// id of its bucket, 12 bytes, not a general entry and its pointer by id (40:
// 32 and 8), race_bench.txt section 79. Measured as the process's resident
// memory over 65,536 new sets (the table's buckets, 64 KiB, included).
TEST(Lockset, AOneLockSetTakesFewerThanTwentyBytes) {
  constexpr uintptr_t kBase = uintptr_t(0x6a) << 40;
  constexpr uint32_t kSets = 1u << 16;
  const size_t before = resident_bytes();
  LocksetId first = kEmptyLockset, last = kEmptyLockset;
  for (uint32_t i = 0; i < kSets; ++i) {
    const uintptr_t lock = kBase + 64 * uintptr_t(i);
    last = lockset_intern(&lock, 1);
    if (i == 0) first = last;
  }
  const size_t grown = resident_bytes() - before;
  ASSERT_TRUE(lockset_is_one_lock(first));
  ASSERT_TRUE(lockset_is_one_lock(last));
  EXPECT_LT(grown, size_t(20) * kSets) << grown / kSets << " bytes a set";
  // Every set is found again with its own id and names its lock.
  for (uint32_t i = 0; i < kSets; i += 4093) {
    const uintptr_t lock = kBase + 64 * uintptr_t(i);
    EXPECT_EQ(lockset_intern(&lock, 1), first + i);
    EXPECT_EQ(members(first + i), (std::vector<uintptr_t>{lock}));
  }
}

}  // namespace
}  // namespace snag::race
