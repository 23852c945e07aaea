// The replay log: decisions recorded by one schedule, written out as the
// `decisions` text of its record (records.cpp), read back by the replay
// strategy, which then makes the same choices.
#include "engines/explore/replay_log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/options.h"
#include "engines/explore/records.h"

namespace snag::explore {
namespace {

std::string temp_path(const char *name) {
  return testing::TempDir() + "/snag_replay_log_" + name + "_" + std::to_string(getpid());
}

std::string write_file(const char *name, const std::string &text) {
  std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// The "decisions" string of the last JSON line in `path`.
std::string decisions_field(const std::string &path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line)) last = line;
  std::string key = "\"decisions\":\"";
  size_t at = last.find(key);
  if (at == std::string::npos) return "<none>";
  at += key.size();
  return last.substr(at, last.find('"', at) - at);
}

class ReplayLogTest : public testing::Test {
 protected:
  void SetUp() override {
    options().parse("");
    results_map(false);
    results_reset();
  }
  ControlledThread me_;
  const Tid all_[3] = {0, 1, 2};
};

TEST_F(ReplayLogTest, RecordedDecisionsRoundTripThroughTheRecord) {
  std::string out = temp_path("records");
  std::remove(out.c_str());
  options().parse(("explore_out=" + out).c_str());
  records_open();
  record_decision(1, 0);  // thread 1 preempted thread 0
  record_decision(1, kNoThread);
  record_decision(2, kNoThread);
  record_decision(0, 2);
  EXPECT_EQ(results().preemptions, 2u);
  Plan plan;
  write_schedule_record("failure", plan, results());
  std::string decisions = decisions_field(out);
  EXPECT_EQ(decisions, "1p0 1 2 0p2");

  ReplayLog log;
  ASSERT_TRUE(log.load(write_file("roundtrip", decisions + "\n").c_str(), false));
  results_reset();
  const Tid expected[] = {1, 1, 2, 0};
  for (uint64_t choice = 0; choice < 4; ++choice)
    EXPECT_EQ(log.choose(all_, 3, me_, true, choice), expected[choice]) << choice;
  EXPECT_FALSE(results().diverged);
}

TEST_F(ReplayLogTest, AnImpossibleDecisionDivergesUnlessLenient) {
  std::string path = write_file("diverge", "0 2 1");
  const Tid no_two[] = {0, 1};
  me_.tid = 1;
  ReplayLog strict;
  ASSERT_TRUE(strict.load(path.c_str(), false));
  EXPECT_EQ(strict.choose(no_two, 2, me_, true, 0), 0u);
  EXPECT_EQ(strict.choose(no_two, 2, me_, true, 1), 1u);  // 2 cannot run: me goes on
  EXPECT_TRUE(results().diverged);
  EXPECT_EQ(results().diverged_at, 1u);

  results_reset();
  ReplayLog lenient;
  ASSERT_TRUE(lenient.load(path.c_str(), true));
  EXPECT_EQ(lenient.choose(no_two, 2, me_, false, 1), 0u);  // me may not: the lowest
  EXPECT_FALSE(results().diverged);
}

TEST_F(ReplayLogTest, PastTheEndTheRunningThreadGoesOn) {
  ReplayLog log;
  ASSERT_TRUE(log.load(write_file("short", " 2\n").c_str(), false));
  me_.tid = 1;
  EXPECT_EQ(log.choose(all_, 3, me_, true, 0), 2u);
  EXPECT_EQ(log.choose(all_, 3, me_, true, 1), 1u);
  EXPECT_FALSE(results().diverged);  // the log ended; nothing contradicted it
}

TEST_F(ReplayLogTest, MalformedFilesAreRefused) {
  ReplayLog log;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(log.load(write_file("bad_token", "0 1x 2").c_str(), false));
  EXPECT_FALSE(log.load(write_file("bad_preempted", "0 1p").c_str(), false));
  EXPECT_FALSE(log.load(write_file("too_big", "4294967295").c_str(), false));
  EXPECT_FALSE(log.load(temp_path("missing").c_str(), false));
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("the replay decisions file is malformed"), std::string::npos) << err;
  EXPECT_NE(err.find("cannot read the replay decisions file"), std::string::npos) << err;
}

}  // namespace
}  // namespace snag::explore
