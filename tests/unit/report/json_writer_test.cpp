#include "report/json_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/version.h"
#include "sample_finding.h"

namespace snag::report {
namespace {

using nlohmann::json;

TEST(JsonWriter, WritesOneDocumentWithFindingsAndSummary) {
  Finding race = testing::sample_race();
  race.count = 2;
  Finding deadlock = testing::sample_race();
  deadlock.kind = "deadlock";
  deadlock.title = "";
  RunInfo run;
  run.engine = "race";
  run.program = "./a.out";
  run.arguments = {"--fast"};
  run.signal = 11;
  run.notes = {"program terminated by signal SIGSEGV (11)"};
  run.warnings = {"findings: line 3: not valid JSON; skipped"};

  std::ostringstream out;
  write_json(out, {race, deadlock}, run);
  json doc = json::parse(out.str());

  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["tool"]["name"], "snag");
  EXPECT_EQ(doc["tool"]["version"], tool_version());
  ASSERT_EQ(doc["findings"].size(), 2u);
  EXPECT_EQ(doc["findings"][0], to_json(race));
  EXPECT_EQ(doc["findings"][0]["count"], 2);
  EXPECT_FALSE(doc["findings"][1].contains("count"));
  EXPECT_EQ(doc["summary"]["findings"], 2);
  EXPECT_EQ(doc["summary"]["reports"], 3);
  EXPECT_EQ(doc["summary"]["by_kind"], (json{{"data-race", 1}, {"deadlock", 1}}));
  EXPECT_EQ(doc["summary"]["text"], "snag: 2 findings (1 data race, 1 deadlock)");
  EXPECT_EQ(doc["run"]["program"], "./a.out");
  EXPECT_EQ(doc["run"]["arguments"], json::array({"--fast"}));
  EXPECT_EQ(doc["run"]["signal"], 11);
  EXPECT_FALSE(doc["run"].contains("exit_status"));
  EXPECT_EQ(doc["run"]["notes"][0], "program terminated by signal SIGSEGV (11)");
  EXPECT_EQ(doc["run"]["warnings"].size(), 1u);
}

TEST(JsonWriter, FindingsReadBackAsTheSameModel) {
  Finding race = testing::sample_race();
  json doc = to_report_json({race}, RunInfo{});
  std::string error;
  std::vector<std::string> notes;
  std::optional<Finding> back = finding_from_json(doc["findings"][0], error, notes);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, race);
}

TEST(JsonWriter, EngineDetailsJoinTheRunObject) {
  RunInfo run;
  run.engine = "explore";
  run.details = {{"explore", {{"schedules", 57}, {"failure", nullptr}}}};
  json doc = to_report_json({}, run);
  EXPECT_EQ(doc["run"]["engine"], "explore");
  EXPECT_EQ(doc["run"]["explore"]["schedules"], 57);
  EXPECT_TRUE(doc["run"]["explore"]["failure"].is_null());
  // Without details the run object has no extra members.
  EXPECT_FALSE(to_report_json({}, RunInfo{})["run"].contains("explore"));
}

TEST(JsonWriter, EmptyReport) {
  json doc = to_report_json({}, RunInfo{});
  EXPECT_TRUE(doc["findings"].empty());
  EXPECT_EQ(doc["summary"]["text"], "snag: no findings");
}

TEST(JsonWriter, InvalidUtf8FromABinaryDoesNotThrow) {
  Finding race = testing::sample_race();
  race.sides[0].stack[0].file = "/src/caf\xe9.cc";  // Latin-1 in a site table
  std::ostringstream out;
  EXPECT_NO_THROW(write_json(out, {race}, RunInfo{}));
  json parsed;
  EXPECT_NO_THROW(parsed = json::parse(out.str()));
}

}  // namespace
}  // namespace snag::report
