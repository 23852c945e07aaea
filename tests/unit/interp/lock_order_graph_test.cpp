#include "interp/lock_order_graph.h"

#include <gtest/gtest.h>

namespace snag::interp {
namespace {

SourceSite At(unsigned line) { return SourceSite{"d.cpp", line, 5}; }
constexpr uint64_t kA = 0x100, kB = 0x200, kC = 0x300;

TEST(LockOrderGraph, AbbaFromTwoThreadsIsADeadlockWithAllFourSites) {
  LockOrderGraph g;
  g.OnAcquire(1, kA, false, At(10), {});
  g.OnAcquire(1, kB, false, At(11), {{kA, At(10)}});
  g.OnAcquire(2, kB, false, At(20), {});
  g.OnAcquire(2, kA, false, At(21), {{kB, At(20)}});
  ASSERT_EQ(g.deadlocks().size(), 1u);
  const Deadlock& d = g.deadlocks()[0];
  EXPECT_FALSE(d.self);
  ASSERT_EQ(d.cycle.size(), 2u);
  EXPECT_EQ(d.cycle[0].held_site.line, 20u);
  EXPECT_EQ(d.cycle[0].acquired_site.line, 21u);
  EXPECT_EQ(d.cycle[1].held_site.line, 10u);
  EXPECT_EQ(d.cycle[1].acquired_site.line, 11u);
}

TEST(LockOrderGraph, ConsistentOrderIsClean) {
  LockOrderGraph g;
  for (ThreadId t : {1u, 2u}) {
    g.OnAcquire(t, kA, false, At(10), {});
    g.OnAcquire(t, kB, false, At(11), {{kA, At(10)}});
  }
  EXPECT_TRUE(g.deadlocks().empty());
}

TEST(LockOrderGraph, InversionUnderACommonGateLockIsClean) {
  constexpr uint64_t kGate = 0x400;
  LockOrderGraph g;
  g.OnAcquire(1, kB, false, At(11), {{kGate, At(9)}, {kA, At(10)}});
  g.OnAcquire(2, kA, false, At(21), {{kGate, At(19)}, {kB, At(20)}});
  EXPECT_TRUE(g.deadlocks().empty());
  // Without the gate on one side the cycle can close.
  LockOrderGraph open;
  open.OnAcquire(1, kB, false, At(11), {{kGate, At(9)}, {kA, At(10)}});
  open.OnAcquire(2, kA, false, At(21), {{kB, At(20)}});
  EXPECT_EQ(open.deadlocks().size(), 1u);
}

TEST(LockOrderGraph, ThreeLockCycle) {
  LockOrderGraph g;
  g.OnAcquire(1, kB, false, At(2), {{kA, At(1)}});
  g.OnAcquire(2, kC, false, At(4), {{kB, At(3)}});
  g.OnAcquire(3, kA, false, At(6), {{kC, At(5)}});
  ASSERT_EQ(g.deadlocks().size(), 1u);
  EXPECT_EQ(g.deadlocks()[0].cycle.size(), 3u);
}

TEST(LockOrderGraph, OneThreadAloneIsNotAnOrderDeadlock) {
  LockOrderGraph g;
  g.OnAcquire(1, kB, false, At(2), {{kA, At(1)}});
  g.OnAcquire(1, kA, false, At(4), {{kB, At(3)}});
  EXPECT_TRUE(g.deadlocks().empty());
}

TEST(LockOrderGraph, SelfDeadlockOnNonRecursiveMutex) {
  LockOrderGraph g;
  g.OnAcquire(1, kA, false, At(8), {{kA, At(7)}});
  ASSERT_EQ(g.deadlocks().size(), 1u);
  EXPECT_TRUE(g.deadlocks()[0].self);
  EXPECT_EQ(g.deadlocks()[0].cycle[0].held_site.line, 7u);
  EXPECT_EQ(g.deadlocks()[0].cycle[0].acquired_site.line, 8u);
}

TEST(LockOrderGraph, RecursiveMutexMayBeRetaken) {
  LockOrderGraph g;
  g.OnAcquire(1, kA, true, At(8), {{kA, At(7)}});
  EXPECT_TRUE(g.deadlocks().empty());
}

}  // namespace
}  // namespace snag::interp
