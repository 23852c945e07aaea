// The lock path's shortcuts to an interned lockset: a thread's memo of the
// sets it interned last (LocksetCache) and the one-lock set kept with the
// lock's synchronization variable. Both must give exactly the id the shared
// table gives, whatever was cached before.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "engines/race/lockset.h"
#include "engines/race/sync_vars.h"

namespace snag::race {
namespace {

// Lock addresses of their own, so other tests' sets do not interfere.
constexpr uintptr_t kA = 0x61000, kB = 0x61040, kC = 0x61080;

LocksetId shared_id(std::vector<uintptr_t> locks) {
  return lockset_intern(locks.data(), static_cast<uint32_t>(locks.size()));
}

LocksetId cached_id(LocksetCache &cache, std::vector<uintptr_t> locks) {
  return cache.intern(locks.data(), static_cast<uint32_t>(locks.size()));
}

TEST(LocksetCache, GivesTheSharedTablesIdWhateverTheOrder) {
  LocksetCache cache;
  EXPECT_EQ(cached_id(cache, {}), kEmptyLockset);
  EXPECT_EQ(cached_id(cache, {kA, kB}), shared_id({kA, kB}));
  EXPECT_EQ(cached_id(cache, {kB, kA}), shared_id({kA, kB}));
  EXPECT_EQ(cached_id(cache, {kB, kA, kB}), shared_id({kA, kB}));
}

TEST(LocksetCache, TheSameSetAgainIsFoundInTheCache) {
  LocksetCache cache;
  LocksetId ab = cached_id(cache, {kA, kB});
  EXPECT_EQ(cache.hits(), 0u);
  EXPECT_EQ(cached_id(cache, {kA, kB}), ab);
  EXPECT_EQ(cached_id(cache, {kB, kA}), ab);
  EXPECT_EQ(cache.hits(), 2u);
}

TEST(LocksetCache, ADifferentLockIsNotTakenForTheCachedOne) {
  LocksetCache cache;
  LocksetId ab = cached_id(cache, {kA, kB});
  LocksetId ac = cached_id(cache, {kA, kC});
  EXPECT_NE(ac, ab);
  EXPECT_EQ(ac, shared_id({kA, kC}));
  EXPECT_EQ(cache.hits(), 0u);
  // A subset or superset of a cached set is a set of its own too.
  EXPECT_EQ(cached_id(cache, {kA}), shared_id({kA}));
  EXPECT_EQ(cached_id(cache, {kA, kB, kC}), shared_id({kA, kB, kC}));
  EXPECT_EQ(cache.hits(), 0u);
}

TEST(LocksetCache, EvictedSetsAreInternedAgainWithTheSameId) {
  LocksetCache cache;
  LocksetId first = cached_id(cache, {kA, kB});
  for (uintptr_t i = 0; i < 20; ++i) {
    uintptr_t other = 0x62000 + 64 * i;
    EXPECT_EQ(cached_id(cache, {kA, other}), shared_id({kA, other}));
  }
  uint32_t hits = cache.hits();
  EXPECT_EQ(cached_id(cache, {kA, kB}), first);
  EXPECT_EQ(cache.hits(), hits);  // pushed out by the twenty others: a miss
}

TEST(LocksetAlone, TheOneLockSetKeptWithTheLockIsTheInternedOne) {
  const uintptr_t m = 0x7100000;
  SyncVar *v = sync_var(m, true);
  EXPECT_EQ(v->alone.load(), kEmptyLockset);  // not interned until a thread takes the lock alone
  LocksetId alone = sync_lockset_alone(v);
  EXPECT_EQ(alone, shared_id({m}));
  EXPECT_EQ(v->alone.load(), alone);
  EXPECT_EQ(sync_lockset_alone(v), alone);
}

TEST(LocksetAlone, AForgottenVariableIsMarkedSoAHolderLooksTheLockUpAgain) {
  const uintptr_t m = 0x7100100;
  SyncVar *v = sync_var(m, true);
  EXPECT_FALSE(v->forgotten.load());
  sync_forget_range(m, m + 64);
  EXPECT_TRUE(v->forgotten.load());
  SyncVar *fresh = sync_var(m, true);
  EXPECT_NE(fresh, v);
  EXPECT_FALSE(fresh->forgotten.load());
  // The lockset names the address, so a holder's set stays the same.
  EXPECT_EQ(sync_lockset_alone(fresh), sync_lockset_alone(v));
}

// The one-lock sets of an array of locks (4,096 mutexes 64 bytes apart) use
// a run of adjacent buckets of the shared table, a few of its pages, not a
// bucket on each of its 32 pages; each set is still its own.
TEST(LocksetTable, AnArrayOfLocksUsesAFewPagesOfTheTable) {
  constexpr uintptr_t kArray = 0x7f1234567040;
  constexpr uint32_t kLocks = 4096;
  constexpr uint32_t kBucketsPerPage = 4096 / sizeof(void *);
  std::set<uint32_t> pages;
  std::set<LocksetId> ids;
  for (uint32_t i = 0; i < kLocks; ++i) {
    const uintptr_t lock = kArray + 64 * uintptr_t(i);
    pages.insert(lockset_bucket_of_lock(lock) / kBucketsPerPage);
    const LocksetId id = lockset_intern(&lock, 1);
    ids.insert(id);
    EXPECT_EQ(lockset_intern(&lock, 1), id);
    ASSERT_TRUE(lockset_contains(id, lock));
  }
  EXPECT_LE(pages.size(), kLocks / kBucketsPerPage + 2);
  EXPECT_EQ(ids.size(), kLocks);
  EXPECT_EQ(ids.count(kEmptyLockset), 0u);
}

// Sets of three or more locks are hashed over a table of their own. The
// sets {m[i], m[i+1]} of an array of 40-byte mutexes took 2,048 buckets
// when the bucket was the hash's low bits, chains of 50 cache misses at
// every lock; such sets must spread like random.
TEST(LocksetTable, SetsOfNeighboursSpreadOverTheirWholeTable) {
  constexpr uintptr_t kArray = 0x7f1234567040;
  constexpr uint32_t kSets = 100000;
  std::set<uint32_t> buckets;
  for (uint32_t i = 0; i < kSets; ++i) {
    const uintptr_t three[3] = {kArray + 40 * uintptr_t(i + 2), kArray + 40 * uintptr_t(i),
                                kArray + 40 * uintptr_t(i + 1)};
    const uintptr_t sorted[3] = {three[1], three[2], three[0]};
    const uint32_t bucket = lockset_set_bucket_of(three, 3);
    ASSERT_LT(bucket, kLocksetSetBuckets);
    ASSERT_EQ(lockset_set_bucket_of(sorted, 3), bucket) << "a set's bucket, whatever the order";
    buckets.insert(bucket);
  }
  // Random choices fill 1 - e^(-kSets / buckets) of them: 78%.
  EXPECT_GE(buckets.size(), kLocksetSetBuckets * 75 / 100);
}

}  // namespace
}  // namespace snag::race
