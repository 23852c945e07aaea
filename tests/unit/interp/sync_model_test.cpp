// Schedules written out by hand, as the interpreter's scheduler would run
// them: each test names which thread does what, in order.
#include "interp/sync_model.h"

#include <gtest/gtest.h>

namespace snag::interp {
namespace {

SourceSite At(unsigned line) { return SourceSite{"s.c", line, 1}; }
constexpr uint64_t kCounter = 0x1000, kMutex = 0x2000, kMutex2 = 0x3000, kFlag = 0x4000;

TEST(SyncModel, UnprotectedCounterRaces) {
  SyncModel s;
  ThreadId child = s.Fork(0);
  s.Access(child, kCounter, 4, true, At(6), "counter");
  s.Access(0, kCounter, 4, true, At(12), "counter");
  ASSERT_EQ(s.races().races().size(), 1u);
  EXPECT_EQ(s.races().races()[0].earlier.site.line, 6u);
  EXPECT_EQ(s.races().races()[0].later.site.line, 12u);
}

TEST(SyncModel, WriteBeforeForkIsOrdered) {
  SyncModel s;
  s.Access(0, kCounter, 4, true, At(3));
  ThreadId child = s.Fork(0);
  s.Access(child, kCounter, 4, false, At(6));
  EXPECT_TRUE(s.races().races().empty());
}

TEST(SyncModel, LockProtectedCounterIsClean) {
  SyncModel s;
  ThreadId child = s.Fork(0);
  ASSERT_TRUE(s.TryLock(child, kMutex, false, At(5)));
  s.Access(child, kCounter, 4, true, At(6));
  s.Unlock(child, kMutex);
  ASSERT_TRUE(s.TryLock(0, kMutex, false, At(11)));
  s.Access(0, kCounter, 4, true, At(12));
  s.Unlock(0, kMutex);
  EXPECT_TRUE(s.races().races().empty());
}

TEST(SyncModel, HeldMutexBlocksOtherThreads) {
  SyncModel s;
  ThreadId child = s.Fork(0);
  ASSERT_TRUE(s.TryLock(0, kMutex, false, At(5)));
  EXPECT_FALSE(s.TryLock(child, kMutex, false, At(9)));
  EXPECT_EQ(s.Owner(kMutex), 0u);
  s.Unlock(0, kMutex);
  EXPECT_TRUE(s.TryLock(child, kMutex, false, At(9)));
}

TEST(SyncModel, JoinOrdersChildWrite) {
  SyncModel s;
  ThreadId child = s.Fork(0);
  s.Access(child, kCounter, 4, true, At(6));
  s.Join(0, child);
  s.Access(0, kCounter, 4, false, At(14));
  EXPECT_TRUE(s.races().races().empty());
}

TEST(SyncModel, ReleaseAcquireFlagPublishes) {
  SyncModel s;
  ThreadId child = s.Fork(0);
  s.Access(child, kCounter, 4, true, At(6));  // data
  s.AtomicStore(child, kFlag);                 // ready = true
  s.AtomicLoad(0, kFlag);                      // sees ready
  s.Access(0, kCounter, 4, false, At(15));
  EXPECT_TRUE(s.races().races().empty());
}

TEST(SyncModel, AbbaAcrossThreadsIsReported) {
  SyncModel s;
  ThreadId t1 = s.Fork(0);
  ThreadId t2 = s.Fork(0);
  ASSERT_TRUE(s.TryLock(t1, kMutex, false, At(5)));
  ASSERT_TRUE(s.TryLock(t1, kMutex2, false, At(6)));
  s.Unlock(t1, kMutex2);
  s.Unlock(t1, kMutex);
  ASSERT_TRUE(s.TryLock(t2, kMutex2, false, At(12)));
  ASSERT_TRUE(s.TryLock(t2, kMutex, false, At(13)));
  ASSERT_EQ(s.lock_order().deadlocks().size(), 1u);
}

TEST(SyncModel, DoubleLockOfPlainMutexIsSelfDeadlock) {
  SyncModel s;
  ASSERT_TRUE(s.TryLock(0, kMutex, false, At(4)));
  EXPECT_FALSE(s.TryLock(0, kMutex, false, At(5)));
  ASSERT_EQ(s.lock_order().deadlocks().size(), 1u);
  EXPECT_TRUE(s.lock_order().deadlocks()[0].self);
}

TEST(SyncModel, RecursiveMutexNests) {
  SyncModel s;
  ASSERT_TRUE(s.TryLock(0, kMutex, true, At(4)));
  ASSERT_TRUE(s.TryLock(0, kMutex, true, At(5)));
  s.Unlock(0, kMutex);
  EXPECT_EQ(s.Owner(kMutex), 0u);
  s.Unlock(0, kMutex);
  EXPECT_FALSE(s.Owner(kMutex).has_value());
  EXPECT_TRUE(s.lock_order().deadlocks().empty());
}

}  // namespace
}  // namespace snag::interp
