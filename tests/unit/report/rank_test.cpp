#include "report/rank.h"

#include <gtest/gtest.h>

namespace snag::report {
namespace {

Finding with(double rank, std::string message) {
  Finding f;
  f.rank = rank;
  f.message = std::move(message);
  return f;
}

TEST(Rank, SortsByRankDescendingAndKeepsTiesInOrder) {
  std::vector<Finding> findings = {with(0.3, "a"), with(0.9, "b"), with(0.5, "c"),
                                   with(0.9, "d"), with(0.3, "e"), with(1.0, "f")};
  rank(findings);
  std::string order;
  for (const Finding &f : findings) order += f.message;
  EXPECT_EQ(order, "fbdcae");
}

TEST(Rank, EmptyAndSingleLists) {
  std::vector<Finding> none;
  rank(none);
  EXPECT_TRUE(none.empty());
  std::vector<Finding> one = {with(0.1, "x")};
  rank(one);
  EXPECT_EQ(one[0].message, "x");
}

}  // namespace
}  // namespace snag::report
