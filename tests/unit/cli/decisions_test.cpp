#include "cli/decisions.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace snag::cli {
namespace {

using Tokens = std::vector<std::string>;

TEST(Decisions, SplitOnAnyWhiteSpace) {
  EXPECT_EQ(split_decisions("0 1  2p1\t0\n3"), (Tokens{"0", "1", "2p1", "0", "3"}));
  EXPECT_EQ(split_decisions(""), Tokens{});
  EXPECT_EQ(split_decisions("  \n "), Tokens{});
}

TEST(Decisions, JoinWithSingleSpaces) {
  EXPECT_EQ(join_decisions({"0", "2p1", "1"}), "0 2p1 1");
  EXPECT_EQ(join_decisions({}), "");
}

TEST(Decisions, ValidTokensAreNumbersOrPreemptions) {
  for (const char *good : {"0", "12", "2p1", "10p0", "007"}) EXPECT_TRUE(is_decision(good)) << good;
  for (const char *bad : {"", "p", "2p", "p1", "2p1p0", "-1", "1x", "T1", "2P1", "1.5", " 1"})
    EXPECT_FALSE(is_decision(bad)) << bad;
}

TEST(Decisions, FirstMalformedToken) {
  EXPECT_EQ(first_malformed_decision("0 1 2p1"), std::nullopt);
  EXPECT_EQ(first_malformed_decision(""), std::nullopt);
  EXPECT_EQ(first_malformed_decision("0 x 2p"), "x");
}

TEST(Decisions, CountPreemptions) {
  EXPECT_EQ(count_preemptions(""), 0u);
  EXPECT_EQ(count_preemptions("0 1 1 0"), 0u);
  EXPECT_EQ(count_preemptions("0 1p0 1 2p1 0p2 0"), 3u);
}

TEST(Decisions, RemovingAPreemptionLetsTheRunningThreadGoOn) {
  const std::string decisions = "0 1p0 1 2p1 0p2 0";
  EXPECT_EQ(remove_preemption(decisions, 0), "0 0 1 2p1 0p2 0");
  EXPECT_EQ(remove_preemption(decisions, 1), "0 1p0 1 1 0p2 0");
  EXPECT_EQ(remove_preemption(decisions, 2), "0 1p0 1 2p1 2 0");
  EXPECT_EQ(count_preemptions(remove_preemption(decisions, 1)), 2u);
  EXPECT_EQ(remove_preemption(" 12p10\n", 0), "10");
}

TEST(Decisions, RemovingAMissingPreemptionThrows) {
  EXPECT_THROW(remove_preemption("0 1p0", 1), std::out_of_range);
  EXPECT_THROW(remove_preemption("0 1 2", 0), std::out_of_range);
}

TEST(Decisions, CommonPrefixLength) {
  EXPECT_EQ(common_prefix_length("0 1 2p1 0", "0 1 2p1 0"), 4u);
  EXPECT_EQ(common_prefix_length("0 1 2p1 0", "0 1 1"), 2u);
  EXPECT_EQ(common_prefix_length("0 1 2", "0 1"), 2u);
  EXPECT_EQ(common_prefix_length("", "0"), 0u);
}

}  // namespace
}  // namespace snag::cli
