#include "cli/explore_records.h"

#include <gtest/gtest.h>

#include <sstream>

namespace snag::cli {
namespace {

ExploreRecords read(const std::string &text, std::vector<std::string> *warnings = nullptr) {
  std::istringstream in(text);
  return read_explore_records(in, "explore_out", warnings);
}

TEST(ExploreRecords, ReadsTheDocumentedRecords) {
  ExploreRecords records = read(
      R"({"type":"failure","schedule":12,"strategy":"pct","seed":987,"kind":"deadlock","message":"m","steps":40,"preemptions":2,"threads":3,"diverged":false,"truncated":true,"points":"vars/555555577250","decisions":"0 1 2p1 0"})"
      "\n"
      R"({"type":"schedule","schedule":0,"strategy":"replay","kind":"none","steps":40,"preemptions":0,"diverged":true,"diverged_at":2,"decisions":"0 1 1"})"
      "\n"
      R"({"type":"summary","schedules":1000,"seconds":2.5,"failures":1,"per_strategy":{"pct":200,"random":200},"threads":3,"forked":true,"notes":["thread T2 left control in read() at a.c:10:3"]})"
      "\n");
  ASSERT_TRUE(records.failure);
  EXPECT_EQ(records.failure->schedule, 12u);
  EXPECT_EQ(records.failure->strategy, "pct");
  EXPECT_EQ(records.failure->seed, 987u);
  EXPECT_EQ(records.failure->kind, "deadlock");
  EXPECT_EQ(records.failure->preemptions, 2u);
  EXPECT_EQ(records.failure->decisions, "0 1 2p1 0");
  EXPECT_EQ(records.failure->points, "vars/555555577250");
  EXPECT_TRUE(records.failure->truncated);
  ASSERT_TRUE(records.schedule);
  EXPECT_TRUE(records.schedule->diverged);
  EXPECT_EQ(records.schedule->diverged_at, 2u);
  EXPECT_EQ(records.schedule->decisions, "0 1 1");
  ASSERT_TRUE(records.summary);
  EXPECT_EQ(records.summary->schedules, 1000u);
  EXPECT_DOUBLE_EQ(records.summary->seconds, 2.5);
  EXPECT_EQ(records.summary->per_strategy,
            (std::map<std::string, uint64_t>{{"pct", 200}, {"random", 200}}));
  EXPECT_TRUE(records.summary->forked);
  EXPECT_EQ(records.summary->notes,
            std::vector<std::string>{"thread T2 left control in read() at a.c:10:3"});
}

TEST(ExploreRecords, SkipsBrokenLinesAndKeepsTheFirstOfEachType) {
  std::vector<std::string> warnings;
  ExploreRecords records = read(
      "\n"
      R"({"type":"failure","schedule":3,"kind":"crash","decisions":"0"})"
      "\n"
      R"({"type":"failure","schedule":1,"kind":"hang","decisions":"1"})"
      "\n"
      R"({"type":"progress","schedules":5})"
      "\n"
      R"({"type":"summary","schedules":4,"seconds":"soon","per_strategy":{"random":"many"}})"
      "\n"
      R"({"type":"summary","sched)",
      &warnings);
  ASSERT_TRUE(records.failure);
  EXPECT_EQ(records.failure->schedule, 3u);
  EXPECT_FALSE(records.schedule);
  ASSERT_TRUE(records.summary);
  EXPECT_EQ(records.summary->schedules, 4u);
  EXPECT_EQ(records.summary->seconds, 0);
  EXPECT_TRUE(records.summary->per_strategy.empty());
  EXPECT_EQ(warnings, std::vector<std::string>{"explore_out: line 6: not a JSON object; skipped"});
}

TEST(ExploreRecords, AFailureNeedsKindAndDecisions) {
  std::vector<std::string> warnings;
  ExploreRecords records = read(R"({"type":"failure","schedule":3,"kind":"crash"})", &warnings);
  EXPECT_FALSE(records.failure);
  EXPECT_EQ(warnings.size(), 1u);
}

TEST(ExploreRecords, NoWarningsWhenNotAsked) { EXPECT_FALSE(read("half a li").failure); }

}  // namespace
}  // namespace snag::cli
