#include "report/dedup.h"

#include <gtest/gtest.h>

#include "sample_finding.h"

namespace snag::report {
namespace {

using testing::sample_race;

TEST(Dedup, MergesDuplicatesIntoTheFirstWithACount) {
  Finding first = sample_race();
  Finding again = sample_race();
  again.pid = 999;                       // other run details do not matter
  again.sides[0].stack.pop_back();       // nor do the outer frames
  Finding third = sample_race();
  third.count = 5;                       // an already merged finding counts as 5
  std::vector<Finding> out = dedup({first, again, third});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].count, 7u);
  EXPECT_EQ(out[0].pid, 1234);  // the first one is kept
}

TEST(Dedup, SidesAreAMultiset) {
  Finding a = sample_race();
  Finding b = sample_race();
  std::swap(b.sides[0], b.sides[1]);
  EXPECT_EQ(dedup_key(a), dedup_key(b));
  EXPECT_EQ(dedup({a, b}).size(), 1u);
}

TEST(Dedup, DifferentKindsOrPlacesStaySeparate) {
  Finding race = sample_race();
  Finding other_kind = sample_race();
  other_kind.kind = "atomicity-violation";
  Finding other_place = sample_race();
  other_place.sides[1].stack[0].line = 21;
  std::vector<Finding> out = dedup({race, other_kind, other_place, race});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].count, 2u);
  EXPECT_EQ(out[1].kind, "atomicity-violation");
  EXPECT_EQ(out[2].sides[1].stack[0].line, 21);
}

TEST(Dedup, UnresolvedFramesCompareBySiteId) {
  Finding a = sample_race();
  for (Side &side : a.sides) side.stack = {Frame{"00000000000000aa", "", "", 0, 0}};
  Finding b = a;
  Finding c = a;
  c.sides[1].stack[0].site = "00000000000000bb";
  EXPECT_EQ(dedup({a, b, c}).size(), 2u);
  EXPECT_NE(dedup_key(a).find("site:00000000000000aa"), std::string::npos);
}

TEST(Dedup, KeepsFirstSeenOrder) {
  Finding a = sample_race();
  Finding b = sample_race();
  b.kind = "deadlock";
  Finding c = sample_race();
  c.kind = "hang";
  std::vector<Finding> out = dedup({a, b, a, c, b});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].kind, "data-race");
  EXPECT_EQ(out[1].kind, "deadlock");
  EXPECT_EQ(out[2].kind, "hang");
}

}  // namespace
}  // namespace snag::report
