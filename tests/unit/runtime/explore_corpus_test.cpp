// The cover strategy's corpus (corpus.h): which base a cover plan draws.
#include "engines/explore/corpus.h"

#include "engines/explore/coverage.h"

#include <gtest/gtest.h>

#include <memory>

namespace snag::explore {
namespace {

Plan cover_plan() {
  Plan p;
  p.strategy = Strategy::kCover;
  return p;
}

// A schedule that reached `point` (reported new when `is_new`), with
// `decisions` decisions, each choosing thread `marker`.
std::unique_ptr<ScheduleResults> reached(uint16_t point, bool is_new, Tid marker, uint32_t decisions) {
  auto r = std::make_unique<ScheduleResults>();
  r->hit_coverage_count = 1;
  r->hit_coverage[0] = point;
  if (is_new) r->new_coverage_count = 1, r->new_coverage[0] = point;
  r->decision_count = decisions;
  for (uint32_t i = 0; i < decisions; ++i) r->decisions[i] = {marker, kNoThread};
  return r;
}

// A power schedule: an entry whose point few schedules reach is the base of
// more cover plans than one whose point every schedule reaches.
TEST(Corpus, EntriesWhosePointsFewSchedulesReachAreDrawnMoreOften) {
  constexpr uint16_t kCommon = 61001, kRare = 61002;
  constexpr Tid kCommonMarker = 901, kRareMarker = 902;
  auto common = reached(kCommon, true, kCommonMarker, 3);
  coverage_learn(*common);
  corpus_add(*common, cover_plan());
  for (int i = 0; i < 99; ++i) coverage_learn(*reached(kCommon, false, kCommonMarker, 3));
  auto rare = reached(kRare, true, kRareMarker, 3);
  coverage_learn(*rare);
  corpus_add(*rare, cover_plan());
  ASSERT_EQ(coverage_hits(kCommon), 100u);
  ASSERT_EQ(coverage_hits(kRare), 1u);

  Random random;
  random.seed(17);
  int common_bases = 0, rare_bases = 0;
  for (int i = 0; i < 2000; ++i) {
    Plan p;
    corpus_plan(p, random);
    if (!p.base) continue;
    common_bases += p.base[0].chosen == kCommonMarker;
    rare_bases += p.base[0].chosen == kRareMarker;
  }
  // Weights 1/100 and 1/1 (other tests' entries share the corpus): drawn
  // alike, each would be the base of about as many plans as the other.
  EXPECT_GT(rare_bases, 200);
  EXPECT_GT(rare_bases, 20 * common_bases);
}

}  // namespace
}  // namespace snag::explore

namespace snag::explore {
namespace {

// Only a cover schedule's decisions are a base: the other strategies make
// their choices at other scheduling points.
TEST(Corpus, OnlyCoverSchedulesBecomeBases) {
  uint32_t before = corpus_size();
  for (Strategy s : {Strategy::kPct, Strategy::kPctVb, Strategy::kRandom, Strategy::kVb,
                     Strategy::kPreemptBound, Strategy::kDelayBound}) {
    Plan p;
    p.strategy = s;
    corpus_add(*reached(61003, true, 903, 3), p);
  }
  EXPECT_EQ(corpus_size(), before);
  corpus_add(*reached(61004, true, 904, 3), cover_plan());
  EXPECT_EQ(corpus_size(), before + 1);
}

}  // namespace
}  // namespace snag::explore

namespace snag::explore {
namespace {

// Every plan with a base holds the thread its flip preempted back, for 1
// to 16 choices (strategy.cpp does the holding); a plan without one does not.
TEST(Corpus, PlansWithABaseHoldTheFlippedThreadBack) {
  corpus_add(*reached(61005, true, 905, 40), cover_plan());
  Random random;
  random.seed(23);
  int based = 0;
  uint32_t shortest = ~0u, longest = 0;
  for (int i = 0; i < 2000; ++i) {
    Plan p;
    corpus_plan(p, random);
    if (!p.base) {
      EXPECT_EQ(p.hold, 0u);
      continue;
    }
    ++based;
    if (p.hold < shortest) shortest = p.hold;
    if (p.hold > longest) longest = p.hold;
  }
  EXPECT_GT(based, 1000);
  EXPECT_EQ(shortest, 1u);
  EXPECT_EQ(longest, 16u);
}

}  // namespace
}  // namespace snag::explore
