// The scheduler's bookkeeping, driven from one thread: which threads are
// candidates at a point, the decisions and counters it records, wake-ups,
// spin detection and held locks. (Handing the baton to another thread needs
// real threads; the explore suite covers that end to end.)
#include "engines/explore/scheduler.h"

#include <gtest/gtest.h>
#include <atomic>
#include <thread>

#include "core/options.h"
#include "engines/explore/baton.h"
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

// A thread blocked in a join of thread 2 is joining it (a pthread_detach of
// thread 2 is then a no-op, as in glibc); a woken joiner, or one waiting for
// something else, is not.
TEST_F(SchedulerTest, JoiningIsABlockedJoinOfThatThread) {
  EXPECT_FALSE(s().joining(2));
  t(1).status = Status::kBlocked;
  t(1).wait = WaitKind::kJoin;
  t(1).wait_addr = 2;
  t(1).wait_tid = 2;
  EXPECT_TRUE(s().joining(2));
  EXPECT_FALSE(s().joining(1));
  s().wake_all(WaitKind::kJoin, 2);
  EXPECT_FALSE(s().joining(2));
  t(1).status = Status::kBlocked;
  t(1).wait = WaitKind::kMutex;
  EXPECT_FALSE(s().joining(2));
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

// A lock waiter that is woken, then chosen while its lock is taken again,
// would only check the lock, block again and reach its own scheduling
// point: the scheduler takes that step for it, and the baton never goes to
// it. A helper thread plays thread 1: it records whether thread 1 got the
// baton and, if so, hands it back, so that a scheduler that hands it over
// fails this test instead of hanging it.
Tid g_rechecked_tid = kNoThread;
uintptr_t g_rechecked_lock = 0;
bool lock_taken_by_another(uintptr_t lock, Tid tid, uint32_t) {
  g_rechecked_lock = lock;
  g_rechecked_tid = tid;
  return true;
}

TEST_F(SchedulerTest, AChosenLockWaiterWhoseLockIsTakenBlocksAgainWithoutTheBaton) {
  // Priorities (pct without change points): 1 first, then 0, then 2.
  Plan plan;
  plan.strategy = Strategy::kPct;
  scheduler().activate(main_, plan);
  scheduler().thread_created(1);
  scheduler().thread_created(2);
  t(0).priority = 5;
  t(1).priority = 9;
  t(2).priority = 1;
  ControlledThread &waiter = t(1);
  waiter.status = Status::kBlocked;
  waiter.wait = WaitKind::kMutex;
  waiter.wait_addr = 0xa;
  waiter.recheck_blocks = lock_taken_by_another;
  s().wake_all(WaitKind::kMutex, 0xa);  // the lock was let go, then taken again
  ASSERT_EQ(waiter.status, Status::kEnabled);

  std::atomic<bool> done{false}, waiter_ran{false};
  std::thread plays_thread_1([&] {
    while (!done.load()) {
      if (waiter.turn.load() != 1) {
        std::this_thread::yield();
        continue;
      }
      waiter_ran = true;
      waiter.status = Status::kBlocked;  // blocks again, and gives the baton back to 0
      waiter.turn.store(0);
      pass_baton(t(0).turn);
      return;
    }
  });
  s().point(t(0), PointKind::kSync);
  done = true;
  plays_thread_1.join();

  EXPECT_FALSE(waiter_ran.load());
  EXPECT_EQ(g_rechecked_lock, 0xau);
  EXPECT_EQ(g_rechecked_tid, 1u);
  EXPECT_EQ(waiter.status, Status::kBlocked);
  EXPECT_EQ(waiter.wait, WaitKind::kMutex);
  EXPECT_EQ(waiter.wait_addr, 0xau);
  EXPECT_EQ(waiter.turn.load(), 0u);
  EXPECT_EQ(s().running(), &t(0));
  EXPECT_EQ(t(0).turn.load(), 1u);
  // Both points counted and decided as if thread 1 had run: 0 chose 1 (a
  // preemption), then 1, blocked again, chose 0 (0 before 2).
  EXPECT_EQ(s().steps(), 2u);
  EXPECT_EQ(s().choice_points(), 2u);
  ASSERT_EQ(results().decision_count, 2u);
  EXPECT_EQ(results().decisions[0].chosen, 1u);
  EXPECT_EQ(results().decisions[0].preempted, 0u);
  EXPECT_EQ(results().decisions[1].chosen, 0u);
  EXPECT_EQ(results().decisions[1].preempted, kNoThread);
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
