#include "report/summary.h"

#include <gtest/gtest.h>

namespace snag::report {
namespace {

Finding of_kind(std::string kind, uint64_t count = 1) {
  Finding f;
  f.kind = std::move(kind);
  f.count = count;
  return f;
}

TEST(Summary, CountsNouns) {
  EXPECT_EQ(count_noun(1, "data race"), "1 data race");
  EXPECT_EQ(count_noun(2, "data race"), "2 data races");
  EXPECT_EQ(count_noun(3, "crash"), "3 crashes");
  EXPECT_EQ(count_noun(0, "finding"), "0 findings");
}

TEST(Summary, Line) {
  EXPECT_EQ(summary_line({}), "snag: no findings");
  EXPECT_EQ(summary_line({of_kind("data-race")}), "snag: 1 finding (1 data race)");
  EXPECT_EQ(summary_line({of_kind("data-race"), of_kind("deadlock"), of_kind("data-race", 4)}),
            "snag: 3 findings (2 data races, 1 deadlock)");
}

TEST(Summary, CountByKindKeepsFirstAppearanceAndReports) {
  std::vector<KindCount> counts =
      count_by_kind({of_kind("hang"), of_kind("data-race", 3), of_kind("hang", 2)});
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].kind, "hang");
  EXPECT_EQ(counts[0].findings, 2u);
  EXPECT_EQ(counts[0].reports, 3u);
  EXPECT_EQ(counts[1].title, "data race");
  EXPECT_EQ(counts[1].reports, 3u);
}

}  // namespace
}  // namespace snag::report
