// The detector is driven the way the interpreter's sync model drives it:
// each thread has a clock, a release ticks it, an acquire joins the released
// clock. The tests replay small schedules by hand.
#include "interp/race_detector.h"

#include <gtest/gtest.h>

namespace snag::interp {
namespace {

SourceSite At(unsigned line) { return SourceSite{"t.c", line, 3}; }

// Thread 0 forks thread 1: the child starts knowing the parent's history.
struct TwoThreads {
  VectorClock t0, t1;
  TwoThreads() {
    t0.Tick(0);
    t1.Join(t0);
    t1.Tick(1);
    t0.Tick(0);
  }
};

TEST(RaceDetector, UnorderedWritesRaceWithBothSites) {
  TwoThreads s;
  RaceDetector d;
  d.OnAccess(1, s.t1, 0x1000, 4, true, At(5), "counter");
  d.OnAccess(0, s.t0, 0x1000, 4, true, At(9), "counter");
  ASSERT_EQ(d.races().size(), 1u);
  const Race& r = d.races()[0];
  EXPECT_EQ(r.variable, "counter");
  EXPECT_EQ(r.earlier.site.line, 5u);
  EXPECT_EQ(r.earlier.thread, 1u);
  EXPECT_TRUE(r.earlier.is_write);
  EXPECT_EQ(r.later.site.line, 9u);
  EXPECT_EQ(r.later.thread, 0u);
}

TEST(RaceDetector, ReadThenUnorderedWriteRaces) {
  TwoThreads s;
  RaceDetector d;
  d.OnAccess(0, s.t0, 0x20, 1, false, At(3));
  d.OnAccess(1, s.t1, 0x20, 1, true, At(4));
  ASSERT_EQ(d.races().size(), 1u);
  EXPECT_FALSE(d.races()[0].earlier.is_write);
  EXPECT_TRUE(d.races()[0].later.is_write);
}

TEST(RaceDetector, ReadsNeverRaceWithReads) {
  TwoThreads s;
  RaceDetector d;
  d.OnAccess(0, s.t0, 0x20, 8, false, At(3));
  d.OnAccess(1, s.t1, 0x20, 8, false, At(4));
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, JoinOrdersTheChildsWrite) {
  TwoThreads s;
  RaceDetector d;
  d.OnAccess(1, s.t1, 0x40, 4, true, At(5));
  s.t0.Join(s.t1);  // pthread_join
  d.OnAccess(0, s.t0, 0x40, 4, false, At(12));
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, MutexReleaseAcquireOrders) {
  TwoThreads s;
  RaceDetector d;
  VectorClock mutex;
  d.OnAccess(1, s.t1, 0x40, 4, true, At(5));
  mutex.Join(s.t1);  // unlock by thread 1
  s.t1.Tick(1);
  s.t0.Join(mutex);  // lock by thread 0
  d.OnAccess(0, s.t0, 0x40, 4, true, At(7));
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, DisjointBytesDoNotRace) {
  TwoThreads s;
  RaceDetector d;
  d.OnAccess(0, s.t0, 0x100, 4, true, At(1));
  d.OnAccess(1, s.t1, 0x104, 4, true, At(2));
  EXPECT_TRUE(d.races().empty());
}

TEST(RaceDetector, OneReportPerSitePair) {
  TwoThreads s;
  RaceDetector d;
  for (int i = 0; i < 10; ++i) {
    d.OnAccess(1, s.t1, 0x1000, 4, true, At(5));
    d.OnAccess(0, s.t0, 0x1000, 4, true, At(9));
  }
  EXPECT_EQ(d.races().size(), 1u);
}

TEST(RaceDetector, ForgottenMemoryStartsClean) {
  TwoThreads s;
  RaceDetector d;
  d.OnAccess(1, s.t1, 0x1000, 4, true, At(5));
  d.Forget(0x1000, 4);  // free + reuse
  d.OnAccess(0, s.t0, 0x1000, 4, true, At(9));
  EXPECT_TRUE(d.races().empty());
}

}  // namespace
}  // namespace snag::interp
