#include "cli/shrink.h"

#include <gtest/gtest.h>

#include <set>

#include "cli/decisions.h"

namespace snag::cli {
namespace {

// A stand-in for replaying: the "program" fails whenever the decisions still
// contain `needed`, and reports the candidate as the decisions it took.
CandidateCheck fails_while_containing(const std::string &needed,
                                      std::vector<std::string> *tried = nullptr) {
  return [needed, tried](const std::string &candidate) -> std::optional<std::string> {
    if (tried) tried->push_back(candidate);
    for (const std::string &token : split_decisions(candidate))
      if (token == needed) return candidate;
    return std::nullopt;
  };
}

TEST(Shrink, RemovesEveryPreemptionTheFailureDoesNotNeed) {
  std::vector<std::string> tried;
  ShrinkResult result =
      shrink_decisions("0 1p0 1 2p1 0p2 0", fails_while_containing("2p1", &tried), 300);
  EXPECT_EQ(result.decisions, "0 0 1 2p1 2 0");
  EXPECT_FALSE(result.capped);
  // Last preemption first: 0p2 goes, 2p1 stays, 1p0 goes; then one more
  // pass finds that 2p1 cannot go.
  EXPECT_EQ(tried, (std::vector<std::string>{"0 1p0 1 2p1 2 0", "0 1p0 1 1 2 0", "0 0 1 2p1 2 0",
                                             "0 0 1 1 2 0"}));
  EXPECT_EQ(result.runs, 4u);
}

TEST(Shrink, NothingToRemoveWithoutPreemptions) {
  std::vector<std::string> tried;
  ShrinkResult result = shrink_decisions("0 1 0", fails_while_containing("1", &tried), 300);
  EXPECT_EQ(result.decisions, "0 1 0");
  EXPECT_EQ(result.runs, 0u);
  EXPECT_TRUE(tried.empty());
}

TEST(Shrink, KeepsWhatTheRunActuallyTook) {
  // Leniently replayed, the run takes different decisions after the removed
  // preemption (and loses another preemption on the way).
  CandidateCheck check = [](const std::string &candidate) -> std::optional<std::string> {
    if (candidate == "0 1p0 2p1 2") return "0 1p0 1";
    return std::nullopt;
  };
  ShrinkResult result = shrink_decisions("0 1p0 2p1 1p2", check, 300);
  EXPECT_EQ(result.decisions, "0 1p0 1");
  // Then "0 0 1" fails, and is not tried again in the second pass.
  EXPECT_EQ(result.runs, 2u);
}

TEST(Shrink, IgnoresARunWithAsManyPreemptions) {
  // A lenient run that wandered into a new preemption is no progress.
  CandidateCheck check = [](const std::string &) -> std::optional<std::string> {
    return "0 1p0 2p1";
  };
  ShrinkResult result = shrink_decisions("0 1p0 2p1", check, 300);
  EXPECT_EQ(result.decisions, "0 1p0 2p1");
  EXPECT_EQ(result.runs, 2u);
}

TEST(Shrink, StopsAtTheRunCap) {
  ShrinkResult result = shrink_decisions("1p0 2p1 3p2 4p3", fails_while_containing("nothing"), 3);
  EXPECT_TRUE(result.capped);
  EXPECT_EQ(result.runs, 3u);
  EXPECT_EQ(result.decisions, "1p0 2p1 3p2 4p3");
}

TEST(Shrink, RemovesAllWhenNoneIsNeeded) {
  ShrinkResult result = shrink_decisions(
      "1p0 2p1 3p2 4p3", [](const std::string &c) { return std::optional(c); }, 300);
  EXPECT_EQ(result.decisions, "0 1 2 3");
  EXPECT_EQ(result.runs, 4u);
}

TEST(Shrink, ShrunkPath) {
  EXPECT_EQ(shrunk_path("prog.snag-replay.json"), "prog.snag-replay.shrunk.json");
  EXPECT_EQ(shrunk_path("/tmp/x.json"), "/tmp/x.shrunk.json");
  EXPECT_EQ(shrunk_path("replay"), "replay.shrunk");
}

}  // namespace
}  // namespace snag::cli
