// The strategies' decisions for given plans: which thread runs next at a
// choice point (random, PCT, delay and preemption bounding, variable
// bounding).
#include "engines/explore/strategy.h"

#include <gtest/gtest.h>

#include "core/options.h"
#include "engines/explore/results.h"

namespace snag::explore {
namespace {

// Puts the scheduler in control with threads 0 (running), 1 and 2, so the
// chooser can look their priorities up.
class ChooserTest : public testing::Test {
 protected:
  ControlledThread &start(const Plan &plan) {
    options().parse("");
    results_map(false);
    results_reset();
    main_.tid = 0;
    scheduler().activate(main_, plan);
    scheduler().thread_created(1);
    scheduler().thread_created(2);
    return *scheduler().thread(0);
  }
  ControlledThread &thread(Tid t) { return *scheduler().thread(t); }
  // A plan of `strategy` whose first choice point is its one change point.
  static Plan change_at_first_choice(Strategy strategy) {
    Plan plan;
    plan.strategy = strategy;
    plan.change_count = 1;
    plan.change_step[0] = 0;
    return plan;
  }
  ThreadState main_;
  const Tid all_[3] = {0, 1, 2};
};

TEST(Random, IsSplitMix64) {
  // The reference sequence of splitmix64 from seed 0.
  Random r;
  r.seed(0);
  EXPECT_EQ(r.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(r.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(r.next(), 0x06c45d188009454full);
  EXPECT_EQ(r.below(0), 0u);
}

TEST(StrategyNames, RoundTrip) {
  for (Strategy s : {Strategy::kRandom, Strategy::kPct, Strategy::kDelayBound,
                     Strategy::kPreemptBound, Strategy::kVb, Strategy::kPctVb, Strategy::kCover,
                     Strategy::kReplay, Strategy::kPortfolio}) {
    Strategy parsed;
    ASSERT_TRUE(parse_strategy(strategy_name(s), &parsed)) << strategy_name(s);
    EXPECT_EQ(parsed, s);
  }
  Strategy unused;
  EXPECT_FALSE(parse_strategy("dfs", &unused));
  EXPECT_STREQ(strategy_name(Strategy::kPctVb), "pctvb");
}

// Random, and cover without a base (its corpus was empty, or one plan in
// five), choose uniformly from the seed.
TEST_F(ChooserTest, RandomAndCoverWithoutABaseFollowTheSeed) {
  for (Strategy strategy : {Strategy::kRandom, Strategy::kCover}) {
    Plan plan;
    plan.strategy = strategy;
    plan.seed = 42;
    ControlledThread &me = start(plan);
    Random expected;
    expected.seed(42);
    for (uint64_t choice = 0; choice < 20; ++choice)
      EXPECT_EQ(chooser().choose(all_, 3, me, true, choice), all_[expected.below(3)])
          << strategy_name(strategy) << " " << choice;
  }
}

// A cover plan: the base's decisions before the flip, another thread at it,
// and after it the base's decisions again (keep_tail) or random ones.
TEST_F(ChooserTest, CoverFollowsItsBaseFlipsOneChoiceAndKeepsTheTailWhenAsked) {
  const Decision base[6] = {{2, kNoThread}, {1, kNoThread}, {1, kNoThread},
                            {0, kNoThread}, {2, kNoThread}, {1, kNoThread}};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Plan plan;
    plan.strategy = Strategy::kCover;
    plan.seed = seed;
    plan.base = base;
    plan.base_length = 6;
    plan.flip_at = 3;
    plan.keep_tail = true;
    ControlledThread &me = start(plan);
    for (uint64_t choice = 0; choice < 6; ++choice) {
      Tid chosen = chooser().choose(all_, 3, me, true, choice);
      if (choice == 3) EXPECT_NE(chosen, base[3].chosen) << "seed " << seed;
      else EXPECT_EQ(chosen, base[choice].chosen) << "seed " << seed << " choice " << choice;
    }
  }
}

TEST_F(ChooserTest, CoverGoesOnAtRandomAfterTheFlipWithoutTheTail) {
  const Decision base[40] = {};  // thread 0 throughout
  Plan plan;
  plan.strategy = Strategy::kCover;
  plan.seed = 3;
  plan.base = base;
  plan.base_length = 40;
  plan.flip_at = 0;
  ControlledThread &me = start(plan);
  int others = 0;
  EXPECT_NE(chooser().choose(all_, 3, me, true, 0), 0u);
  for (uint64_t choice = 1; choice < 40; ++choice) others += chooser().choose(all_, 3, me, true, choice) != 0;
  EXPECT_GT(others, 10);  // about 26 of 39 for a uniform choice
  EXPECT_LT(others, 39);
}

// A hold: for `hold` choices after the flip, the thread the base ran at the
// flip does not run (the base's other choices stand), then the base again.
TEST_F(ChooserTest, CoverHoldsThePreemptedThreadBackAfterTheFlip) {
  const Decision base[8] = {{0, kNoThread}, {1, kNoThread}, {1, kNoThread}, {2, kNoThread},
                            {1, kNoThread}, {2, kNoThread}, {1, kNoThread}, {1, kNoThread}};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Plan plan;
    plan.strategy = Strategy::kCover;
    plan.seed = seed;
    plan.base = base;
    plan.base_length = 8;
    plan.flip_at = 1;
    plan.keep_tail = true;
    plan.hold = 4;  // choices 2-5
    ControlledThread &me = start(plan);
    for (uint64_t choice = 0; choice < 8; ++choice) {
      Tid chosen = chooser().choose(all_, 3, me, true, choice);
      bool flip_or_held = choice >= 1 && choice <= 5;
      if (flip_or_held) EXPECT_NE(chosen, 1u) << "seed " << seed << " choice " << choice;
      if (!flip_or_held || base[choice].chosen != 1)
        EXPECT_EQ(chosen, base[choice].chosen) << "seed " << seed << " choice " << choice;
    }
  }
  // Without the tail, the choices of the hold are random among the others.
  const Decision one[30] = {};  // thread 0 throughout
  Plan plan;
  plan.strategy = Strategy::kCover;
  plan.seed = 5;
  plan.base = one;
  plan.base_length = 30;
  plan.flip_at = 0;
  plan.hold = 29;
  ControlledThread &me = start(plan);
  int ones = 0;
  for (uint64_t choice = 0; choice < 30; ++choice) {
    Tid chosen = chooser().choose(all_, 3, me, true, choice);
    EXPECT_NE(chosen, 0u) << "choice " << choice;
    ones += chosen == 1;
  }
  EXPECT_GT(ones, 5);  // about 15 of 30
  EXPECT_LT(ones, 25);
}

TEST_F(ChooserTest, PctRunsTheHighestPriorityUntilAChangePoint) {
  Plan plan;
  plan.strategy = Strategy::kPct;
  plan.seed = 7;
  plan.change_count = 2;
  plan.change_step[0] = 5;
  plan.change_step[1] = 9;
  ControlledThread &me = start(plan);
  // Initial priorities: distinct, above every change-point priority.
  for (Tid t : all_) EXPECT_GT(thread(t).priority, uint64_t(kMaxChangePoints) << 32) << t;
  EXPECT_NE(thread(0).priority, thread(1).priority);
  EXPECT_NE(thread(1).priority, thread(2).priority);
  Tid first = chooser().choose(all_, 3, me, true, 0);
  for (Tid t : all_) EXPECT_LE(thread(t).priority, thread(first).priority);
  // Step 5 is the first change point: the thread at it drops to priority 2
  // (of 2), step 9 to priority 1.
  ControlledThread &top = thread(first);
  chooser().before_point(top, 4);
  EXPECT_GT(top.priority, 2u);
  chooser().before_point(top, 5);
  EXPECT_EQ(top.priority, 2u);
  EXPECT_NE(chooser().choose(all_, 3, me, true, 1), first);
  chooser().before_point(top, 9);
  EXPECT_EQ(top.priority, 1u);
}

TEST_F(ChooserTest, DelayBoundIsRoundRobinWithDelays) {
  Plan plan;
  plan.strategy = Strategy::kDelayBound;
  plan.change_count = 1;
  plan.change_step[0] = 3;  // the fourth choice point delays
  ControlledThread &me = start(plan);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 0), 0u);   // no preemption
  EXPECT_EQ(chooser().choose(all_, 3, me, false, 1), 1u);  // the next after me
  const Tid one_two[] = {1, 2};
  EXPECT_EQ(chooser().choose(one_two, 2, thread(2), false, 2), 1u);  // wraps around
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 3), 1u);   // delayed: skips me
  EXPECT_EQ(chooser().choose(all_, 3, thread(2), true, 3), 0u);
}

// A spin-wait that yields waits for another thread: under PCT the yielding
// thread must not keep the highest priority, or it spins until the step
// limit while the thread it waits for never runs.
TEST_F(ChooserTest, PctYieldDropsTheThreadBelowEveryOther) {
  Plan plan;
  plan.strategy = Strategy::kPct;
  plan.seed = 7;
  ControlledThread &me = start(plan);
  Tid top = chooser().choose(all_, 3, me, true, 0);
  chooser().yielded(thread(top));
  chooser().before_point(thread(top), 1);
  for (Tid t : all_)
    if (t != top) EXPECT_LT(thread(top).priority, thread(t).priority) << t;
  Tid next = chooser().choose(all_, 3, thread(top), true, 1);
  EXPECT_NE(next, top);
  // The next one yields too: it goes below the first, and they alternate.
  chooser().yielded(thread(next));
  chooser().before_point(thread(next), 2);
  EXPECT_LT(thread(next).priority, thread(top).priority);
}

TEST_F(ChooserTest, PctYieldAtPriorityZeroLiftsTheOthers) {
  Plan plan;
  plan.strategy = Strategy::kPct;
  ControlledThread &me = start(plan);
  thread(0).priority = 0;
  thread(1).priority = 0;
  thread(2).priority = 5;
  chooser().yielded(thread(0));
  EXPECT_EQ(thread(0).priority, 0u);
  EXPECT_EQ(thread(1).priority, 1u);
  EXPECT_EQ(thread(2).priority, 6u);
  chooser().before_point(me, 1);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 0), 2u);
}

TEST_F(ChooserTest, DelayBoundMovesOnAtAYield) {
  Plan plan;
  plan.strategy = Strategy::kDelayBound;
  ControlledThread &me = start(plan);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 0), 0u);  // no preemption
  chooser().yielded(me);
  chooser().before_point(me, 1);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 1), 1u);  // a yield: the next thread
  chooser().before_point(me, 2);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 2), 0u);  // no longer a yield
}

TEST_F(ChooserTest, PreemptBoundForcesAnotherThreadAtItsPoints) {
  Plan plan;
  plan.strategy = Strategy::kPreemptBound;
  plan.seed = 99;
  plan.change_count = 1;
  plan.change_step[0] = 2;
  ControlledThread &me = start(plan);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 0), 0u);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 1), 0u);
  Tid forced = chooser().choose(all_, 3, me, true, 2);
  EXPECT_NE(forced, 0u);
  EXPECT_LE(forced, 2u);
  // Same plan, same choice.
  start(plan);
  chooser().choose(all_, 3, me, true, 0);
  chooser().choose(all_, 3, me, true, 1);
  EXPECT_EQ(chooser().choose(all_, 3, me, true, 2), forced);
}

// Threads created by the same call share a role (their creation stack);
// a delay skips the delayed thread's whole role.
TEST_F(ChooserTest, DelayBoundSkipsToAnotherRole) {
  start(change_at_first_choice(Strategy::kDelayBound));
  thread(1).kind = thread(2).kind = 5;
  scheduler().thread_created(3, 9);
  const Tid four[] = {0, 1, 2, 3};
  EXPECT_EQ(chooser().choose(four, 4, thread(1), true, 0), 3u);  // not 2: 1's role
}

// 99 workers of one role and one thread of another: a forced preemption
// draws the role first, so the lone thread is picked about half the time
// (a uniform draw: once in 99).
TEST_F(ChooserTest, PreemptBoundDrawsRolesAlike) {
  Plan plan = change_at_first_choice(Strategy::kPreemptBound);
  start(plan);
  thread(1).kind = thread(2).kind = 5;
  for (Tid t = 3; t < 100; ++t) scheduler().thread_created(t, 5);
  scheduler().thread_created(100, 9);
  Tid all[101];
  for (Tid t = 0; t <= 100; ++t) all[t] = t;
  int lone = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    plan.seed = seed;
    chooser().start(plan);
    Tid forced = chooser().choose(all, 101, thread(0), true, 0);
    EXPECT_NE(forced, 0u);
    lone += forced == 100;
  }
  EXPECT_GT(lone, 60);
  EXPECT_LT(lone, 140);
}

TEST_F(ChooserTest, VariableBoundingChangesPriorityAtTheNthAccess) {
  Plan plan;
  plan.strategy = Strategy::kVb;
  plan.access_points = AccessPoints::kVariables;
  plan.variable_count = 2;
  plan.variables[0] = 0x1000;
  plan.variables[1] = 0x2000;
  plan.change_count = 1;
  plan.change_variable[0] = 1;
  plan.change_step[0] = 3;  // the third access to variable 1
  ControlledThread &me = start(plan);
  uint64_t before = thread(2).priority;
  chooser().variable_access(thread(2), 0, 3);  // wrong variable
  chooser().variable_access(thread(2), 1, 2);  // too early
  EXPECT_EQ(thread(2).priority, before);
  chooser().variable_access(thread(2), 1, 3);
  EXPECT_EQ(thread(2).priority, 1u);
  EXPECT_NE(chooser().choose(all_, 3, me, true, 0), 2u);
}

}  // namespace
}  // namespace snag::explore
