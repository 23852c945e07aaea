// The planner: the strategy, seed and parameters of every schedule, and what
// it learns from the schedules run so far (PCT's k, the bounds' ranges,
// variable bounding's variable sets and thread-bounding counts).
#include "engines/explore/planner.h"

#include "engines/explore/corpus.h"
#include "engines/explore/variables.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

namespace snag::explore {
namespace {

std::unique_ptr<ScheduleResults> schedule_results() { return std::make_unique<ScheduleResults>(); }

// Results of a profiling schedule that saw `keys[i]` accessed `accesses[i]`
// times by threads 0 and 1 (shared) or by thread 0 alone.
std::unique_ptr<ScheduleResults> profile(uint32_t threads, std::initializer_list<VariableCount> vars) {
  auto r = schedule_results();
  r->steps = 30;
  r->choices = 12;
  r->threads = threads;
  uint32_t slot = 0;
  for (const VariableCount &v : vars) {
    r->variables[slot++] = v;
    ++r->variable_count;
  }
  return r;
}

constexpr uint64_t kShared = 0b11, kPrivate = 0b01;

TEST(Planner, TheSameSeedGivesTheSamePlans) {
  Planner a, b;
  a.start(Strategy::kPct, 1234, 3, false);
  b.start(Strategy::kPct, 1234, 3, false);
  std::set<uint64_t> seeds;
  for (uint64_t s = 0; s < 10; ++s) {
    Plan pa = a.next(s), pb = b.next(s);
    EXPECT_EQ(pa.seed, pb.seed);
    EXPECT_EQ(pa.change_count, pb.change_count);
    for (int i = 0; i < pa.change_count; ++i) EXPECT_EQ(pa.change_step[i], pb.change_step[i]);
    EXPECT_EQ(pa.schedule, s);
    seeds.insert(pa.seed);
  }
  EXPECT_EQ(seeds.size(), 10u);  // every schedule its own seed
  Planner c, d;
  c.start(Strategy::kPct, 1234, 3, false);
  d.start(Strategy::kPct, 1235, 3, false);
  EXPECT_NE(c.next(0).seed, d.next(0).seed);  // another base seed, other plans
}

TEST(Planner, PctPlacesDepthMinusOneChangePointsWithinTheStepsSeen) {
  Planner p;
  p.start(Strategy::kPct, 5, 4, false);
  for (uint64_t s = 0; s < 20; ++s) {
    Plan plan = p.next(s);
    EXPECT_EQ(plan.strategy, Strategy::kPct);
    ASSERT_EQ(plan.change_count, 3);
    for (int i = 0; i < 3; ++i) {
      EXPECT_GE(plan.change_step[i], 1u);
      EXPECT_LE(plan.change_step[i], 100u);  // before anything is learnt: k = 100
    }
  }
  auto r = schedule_results();
  r->steps = 6;
  p.learn(*r);
  for (uint64_t s = 20; s < 60; ++s) {
    Plan plan = p.next(s);
    for (int i = 0; i < 3; ++i) EXPECT_LE(plan.change_step[i], 6u) << s;
  }
}

TEST(Planner, PctDepthIsClamped) {
  Planner p;
  p.start(Strategy::kPct, 5, 0, false);
  EXPECT_EQ(p.next(0).change_count, 0);
  p.start(Strategy::kPct, 5, 100, false);
  EXPECT_EQ(p.next(1).change_count, kMaxChangePoints);
}

TEST(Planner, ProfilesTheFirstThreeSchedules) {
  Planner p;
  p.start(Strategy::kRandom, 1, 3, true);
  for (uint64_t s = 0; s < 5; ++s) {
    Plan plan = p.next(s);
    EXPECT_EQ(plan.profile, s < 3) << s;
    EXPECT_EQ(plan.access_points, AccessPoints::kAll);
    EXPECT_EQ(plan.change_count, 0);
  }
}

TEST(Planner, PortfolioRotatesAndFallsBackWithoutVariables) {
  Planner p;
  p.start(Strategy::kPortfolio, 9, 3, false);
  // pct, pctvb, random, vb, preempt-bound, delay-bound; the variable-bounded
  // ones are pct until a profile found variables.
  const Strategy expected[] = {Strategy::kPct,          Strategy::kPct,       Strategy::kRandom,
                               Strategy::kPct,          Strategy::kPreemptBound,
                               Strategy::kDelayBound,   Strategy::kPct};
  for (uint64_t s = 0; s < 7; ++s) EXPECT_EQ(p.next(s).strategy, expected[s]) << s;
  p.learn(*profile(2, {{0x1000, 5, kShared}}));
  EXPECT_EQ(p.next(7).strategy, Strategy::kPctVb);
}

TEST(Planner, PortfolioMakesEveryOtherScheduleCoverAfterItsFirstThousand) {
  Planner p;
  p.start(Strategy::kPortfolio, 9, 3, false);
  for (uint64_t s = 0; s < 1000; ++s) ASSERT_NE(p.next(s).strategy, Strategy::kCover) << s;
  // Nothing learnt, so no arm yields more: every other schedule is cover's,
  // and the rotation's are those of the former rule (schedule s runs
  // strategy s/2 of the rotation; pct for vb and pctvb without variables).
  const Strategy rotation[] = {Strategy::kPct, Strategy::kPct, Strategy::kRandom,
                               Strategy::kPct, Strategy::kPreemptBound, Strategy::kDelayBound};
  for (uint64_t s = 1000; s < 1100; ++s)
    EXPECT_EQ(p.next(s).strategy, s % 2 ? Strategy::kCover : rotation[(s / 2) % 6]) << s;
}

// After the first thousand, cover's share follows the new coverage points
// per schedule each arm found, between 1/8 and 7/8.
TEST(Planner, PortfolioGivesCoverTheLargerShareWhileItFindsMoreNewCoverage) {
  auto run = [](uint32_t cover_finds, uint32_t rotation_finds) {
    Planner p;
    p.start(Strategy::kPortfolio, 9, 3, false);
    auto r = schedule_results();
    int cover = 0;
    for (uint64_t s = 0; s < 1400; ++s) {
      Plan plan = p.next(s);
      bool is_cover = plan.strategy == Strategy::kCover;
      r->new_coverage_count = is_cover ? cover_finds : rotation_finds;
      p.learn(*r);
      if (s >= 1200) cover += is_cover;
    }
    return cover;
  };
  // (Within one: the credit left over from schedules before 1,200.)
  EXPECT_NEAR(run(3, 0), 175, 1);  // 7/8 of 200
  EXPECT_NEAR(run(0, 3), 25, 1);   // 1/8
  EXPECT_NEAR(run(2, 2), 100, 1);  // alike: every other
  EXPECT_NEAR(run(0, 0), 100, 1);
}

// Cover plans build on the schedules that covered something new; their
// points include accesses to the variables seen shared.
TEST(Planner, CoverBuildsOnTheCorpusAtSharedVariables) {
  Planner p;
  p.start(Strategy::kCover, 5, 3, false);
  Plan first = p.next(0);
  EXPECT_EQ(first.strategy, Strategy::kCover);
  EXPECT_EQ(first.access_points, AccessPoints::kShared);
  EXPECT_EQ(first.base, nullptr);  // nothing in the corpus yet
  auto r = profile(2, {{0x2000, 5, kShared}, {0x2008, 5, kPrivate}});
  r->decision_count = 4;
  for (uint32_t i = 0; i < 4; ++i) r->decisions[i] = {i % 2, kNoThread};
  p.learn(*r);
  EXPECT_TRUE(is_shared_variable(0x2000));
  EXPECT_FALSE(is_shared_variable(0x2008));
  corpus_add(*r, first);
  int based = 0;
  for (uint64_t s = 1; s < 51; ++s) {
    Plan plan = p.next(s);
    if (!plan.base) continue;
    ++based;
    EXPECT_EQ(plan.base_length, corpus_size() == 1 ? 4u : plan.base_length);
    EXPECT_LT(plan.flip_at, plan.base_length);
    for (uint32_t i = 0; i < plan.base_length && corpus_size() == 1; ++i)
      EXPECT_EQ(plan.base[i].chosen, i % 2);
  }
  EXPECT_GT(based, 30);  // four in five, about 40 of 50
  Planner everywhere;
  everywhere.start(Strategy::kCover, 5, 3, true);
  EXPECT_EQ(everywhere.next(0).access_points, AccessPoints::kAll);
}

TEST(Planner, DelayBoundCyclesOneToThreeDelays) {
  Planner p;
  p.start(Strategy::kDelayBound, 3, 3, false);
  const int bounds[] = {1, 2, 3, 1, 2};
  for (uint64_t s = 0; s < 5; ++s) {
    Plan plan = p.next(s);
    ASSERT_EQ(plan.change_count, bounds[s]);
    for (int i = 0; i < plan.change_count; ++i) EXPECT_LT(plan.change_step[i], 50u);
  }
}

// A portfolio's pct and random schedules may have many more choice points
// than its bounded ones: a delay drawn over those would mostly fall past
// the end of a round-robin schedule.
TEST(Planner, BoundedStrategiesDrawOverTheirOwnChoicePoints) {
  Planner p;
  p.start(Strategy::kPortfolio, 3, 3, false);
  auto many = schedule_results();
  many->choices = 1000;
  auto few = schedule_results();
  few->choices = 10;
  for (uint64_t s = 0; s < 6; ++s) {
    Plan plan = p.next(s);
    bool bounded = plan.strategy == Strategy::kDelayBound || plan.strategy == Strategy::kPreemptBound;
    p.learn(bounded ? *few : *many);
  }
  for (uint64_t s = 6; s < 600; ++s) {
    Plan plan = p.next(s);
    if (plan.strategy != Strategy::kDelayBound && plan.strategy != Strategy::kPreemptBound) continue;
    for (int i = 0; i < plan.change_count; ++i) EXPECT_LT(plan.change_step[i], 10u) << s;
  }
}

TEST(Planner, PreemptBoundRaisesTheBoundIteratively) {
  Planner p;
  p.start(Strategy::kPreemptBound, 3, 3, false);
  EXPECT_EQ(p.next(0).change_count, 0);  // bound 0: one deterministic schedule
  for (uint64_t s = 1; s <= 40; ++s) ASSERT_EQ(p.next(s).change_count, 1) << s;  // 20 << 1
  for (uint64_t s = 41; s <= 120; ++s) ASSERT_EQ(p.next(s).change_count, 2) << s;  // 20 << 2
  EXPECT_EQ(p.next(121).change_count, 3);
}

TEST(Planner, VariableBoundingWalksSetsWithTheThreadBoundingCount) {
  Planner p;
  p.start(Strategy::kVb, 11, 3, false);
  // Two shared globals and a private one; the least accessed shared one first.
  p.learn(*profile(2, {{0x2000, 9, kShared}, {0x1000, 4, kShared}, {0x3000, 2, kPrivate}}));
  // Two threads, fragments n = 6: 2! * (2 ln 6 + ln 10) = 11.77 -> 12
  // schedules per set: {0x1000} x12, {0x2000} x12, {0x3000} x12, then pairs.
  auto keys_of = [](const Plan &plan) {
    std::set<uint64_t> keys(plan.variables, plan.variables + plan.variable_count);
    return keys;
  };
  uint64_t s = 0;
  for (uint64_t key : {0x1000ull, 0x2000ull, 0x3000ull}) {
    for (int i = 0; i < 12; ++i, ++s) {
      Plan plan = p.next(s);
      ASSERT_EQ(plan.strategy, Strategy::kVb);
      ASSERT_EQ(plan.access_points, AccessPoints::kVariables);
      ASSERT_EQ(keys_of(plan), std::set<uint64_t>{key}) << s;
      ASSERT_GE(plan.change_count, 1);
      ASSERT_LE(plan.change_count, 2);
      for (int c = 0; c < plan.change_count; ++c) {
        EXPECT_EQ(plan.change_variable[c], 0);
        uint64_t accesses = key == 0x1000 ? 4 : key == 0x2000 ? 9 : 2;
        EXPECT_GE(plan.change_step[c], 1u);
        EXPECT_LE(plan.change_step[c], accesses);
      }
    }
  }
  Plan pair = p.next(s);
  EXPECT_EQ(keys_of(pair), (std::set<uint64_t>{0x1000, 0x2000}));
  for (int c = 0; c < pair.change_count; ++c) EXPECT_LT(pair.change_variable[c], 2);
}

TEST(Planner, MoreThreadsMeanMoreSchedulesPerVariableSet) {
  Planner p;
  p.start(Strategy::kVb, 11, 3, false);
  p.learn(*profile(3, {{0x1000, 4, kShared}, {0x2000, 9, kShared}}));
  // Three threads, n = 9: 3! * (3 ln 9 + ln 10) = 53.4 -> 54 per set.
  for (uint64_t s = 0; s < 54; ++s) ASSERT_EQ(p.next(s).variables[0], 0x1000u) << s;
  EXPECT_EQ(p.next(54).variables[0], 0x2000u);
}

TEST(Planner, PctVbPicksSharedVariablesByAllocationSite) {
  Planner p;
  p.start(Strategy::kPctVb, 4, 3, false);
  p.learn(*profile(2, {{0x1000, 4, kShared}, {0x3000, 2, kPrivate}}));
  for (uint64_t s = 0; s < 20; ++s) {
    Plan plan = p.next(s);
    ASSERT_EQ(plan.strategy, Strategy::kPctVb);
    ASSERT_EQ(plan.variable_count, 1);
    EXPECT_EQ(plan.variables[0], 0x1000u);  // only the shared one
    EXPECT_EQ(plan.change_count, 2);
  }
}

}  // namespace
}  // namespace snag::explore
