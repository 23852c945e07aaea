// The scheduler's bookkeeping, driven from one thread: which threads are
// candidates at a point, the decisions and counters it records, wake-ups,
// spin detection and held locks. (Handing the baton to another thread needs
// real threads; the explore suite covers that end to end.)
#include "engines/explore/scheduler.h"

#include <gtest/gtest.h>

#include "core/options.h"
#include "engines/explore/results.h"

namespace snag::explore {
namespace {

class SchedulerTest : public testing::Test {
 protected:
  // Threads 0 (running, the caller), 1 and 2; a plan that never preempts:
  // delay bounding without delays lets the running thread go on.
  void SetUp() override {
    options().parse("");
    results_map(false);
    results_reset();
    Plan plan;
    plan.strategy = Strategy::kDelayBound;
    main_.tid = 0;
    scheduler().activate(main_, plan);
    scheduler().thread_created(1);
    scheduler().thread_created(2);
  }
  Scheduler &s() { return scheduler(); }
  ControlledThread &t(Tid tid) { return *scheduler().thread(tid); }
  ThreadState main_;
};

TEST_F(SchedulerTest, ActivationMakesTheCallerTheRunningThread) {
  EXPECT_TRUE(s().active());
  EXPECT_EQ(s().running(), &t(0));
  EXPECT_EQ(t(0).turn.load(), 1u);
  EXPECT_EQ(t(1).turn.load(), 0u);
  EXPECT_EQ(s().thread_limit(), 3u);
  EXPECT_EQ(s().controlled(main_), &t(0));
  EXPECT_EQ(s().thread(3), nullptr);
}

TEST_F(SchedulerTest, APointWithAChoiceRecordsADecision) {
  s().point(t(0), PointKind::kSync);
  EXPECT_EQ(s().steps(), 1u);
  EXPECT_EQ(s().choice_points(), 1u);
  ASSERT_EQ(results().decision_count, 1u);
  EXPECT_EQ(results().decisions[0].chosen, 0u);
  EXPECT_EQ(results().decisions[0].preempted, kNoThread);
  ScheduleResults &r = results();
  s().save_counters(r);
  EXPECT_EQ(r.steps, 1u);
  EXPECT_EQ(r.choices, 1u);
  EXPECT_EQ(r.threads, 3u);
}

TEST_F(SchedulerTest, APointWithOneCandidateIsNoChoice) {
  t(1).status = Status::kFinished;
  t(2).status = Status::kBlocked;
  t(2).wait = WaitKind::kMutex;
  s().point(t(0), PointKind::kSync);
  EXPECT_EQ(s().steps(), 1u);
  EXPECT_EQ(s().choice_points(), 0u);
  EXPECT_EQ(results().decision_count, 0u);
}

TEST_F(SchedulerTest, SpinningThreadsAreNotCandidatesWhileOthersCanRun) {
  for (int i = 0; i < 101; ++i) s().note_spin(t(1), 0x1000);
  EXPECT_TRUE(t(1).spinning);
  t(2).status = Status::kFinished;
  s().point(t(0), PointKind::kSync);
  EXPECT_EQ(s().choice_points(), 0u);  // thread 1 spins: only 0 could run
  // Progress by another thread makes the spinner count again from zero.
  s().progress(0);
  s().note_spin(t(1), 0x1000);
  EXPECT_FALSE(t(1).spinning);
  EXPECT_EQ(t(1).spin_count, 1u);
}

TEST_F(SchedulerTest, WakeOneWakesTheLongestWaiter) {
  for (Tid tid : {2u, 1u}) {
    t(tid).status = Status::kBlocked;
    t(tid).wait = WaitKind::kCond;
    t(tid).wait_addr = 0x2000;
  }
  t(2).wait_order = 5;
  t(1).wait_order = 9;
  EXPECT_FALSE(s().wake_one(WaitKind::kCond, 0x3000));
  EXPECT_FALSE(s().wake_one(WaitKind::kMutex, 0x2000));
  EXPECT_TRUE(s().wake_one(WaitKind::kCond, 0x2000));
  EXPECT_EQ(t(2).status, Status::kEnabled);
  EXPECT_EQ(t(2).wait, WaitKind::kNone);
  EXPECT_EQ(t(1).status, Status::kBlocked);
  s().wake_all(WaitKind::kCond, 0x2000);
  EXPECT_EQ(t(1).status, Status::kEnabled);
}

// The scan skips threads seen finished from then on (live_); the others,
// blocked ones too, are still woken and offered, and so is a thread
// created after that.
TEST_F(SchedulerTest, FinishedThreadsLeaveTheScanButNoOtherThreadDoes) {
  s().thread_created(3);
  s().thread_created(4);
  t(1).status = Status::kFinished;
  t(3).status = Status::kFinished;
  s().point(t(0), PointKind::kSync);  // 0, 2 and 4: a choice
  EXPECT_EQ(s().choice_points(), 1u);
  for (Tid tid : {2u, 4u}) {
    t(tid).status = Status::kBlocked;
    t(tid).wait = WaitKind::kCond;
    t(tid).wait_addr = 0x2000;
  }
  s().point(t(0), PointKind::kSync);  // only 0
  EXPECT_EQ(s().choice_points(), 1u);
  s().wake_all(WaitKind::kCond, 0x2000);
  EXPECT_EQ(t(2).status, Status::kEnabled);
  EXPECT_EQ(t(4).status, Status::kEnabled);
  t(2).status = t(4).status = Status::kFinished;
  s().point(t(0), PointKind::kSync);  // only 0
  EXPECT_EQ(s().choice_points(), 1u);
  s().thread_created(5);
  s().point(t(0), PointKind::kSync);  // 0 and 5
  EXPECT_EQ(s().choice_points(), 2u);
}

TEST_F(SchedulerTest, HeldLocksKeepTheirOrder) {
  s().lock_taken(t(1), 0xa, false);
  s().lock_taken(t(1), 0xb, true);
  s().lock_taken(t(1), 0xc, false);
  s().lock_released(t(1), 0xb);
  ASSERT_EQ(t(1).held_count, 2);
  EXPECT_EQ(t(1).held[0].address, 0xau);
  EXPECT_EQ(t(1).held[1].address, 0xcu);
  s().lock_released(t(1), 0xdead);  // not held: nothing changes
  EXPECT_EQ(t(1).held_count, 2);
}

TEST_F(SchedulerTest, InactiveSchedulerIgnoresPoints) {
  s().deactivate();
  s().point(t(0), PointKind::kSync);
  EXPECT_EQ(s().steps(), 0u);
  EXPECT_EQ(s().controlled(main_), nullptr);
}

using SchedulerDeathTest = SchedulerTest;

TEST_F(SchedulerDeathTest, ASecondBatonHolderIsCaught) {
  t(2).turn.store(1);
  EXPECT_DEATH(s().point(t(0), PointKind::kSync),
               "internal check failed: exactly one controlled thread holds the baton");
}

TEST_F(SchedulerDeathTest, APointFromAThreadWithoutTheBatonIsCaught) {
  EXPECT_DEATH(s().point(t(1), PointKind::kSync),
               "internal check failed: only the running thread reaches a scheduling point");
}

}  // namespace
}  // namespace snag::explore
