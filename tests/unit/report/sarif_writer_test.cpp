#include "report/sarif_writer.h"

#include <gtest/gtest.h>

#include "report/version.h"
#include "sample_finding.h"

namespace snag::report {
namespace {

using nlohmann::json;
using testing::sample_race;

json result_of(const Finding &finding) { return to_sarif({finding}, RunInfo{})["runs"][0]["results"][0]; }

TEST(SarifWriter, LogAndDriver) {
  json log = to_sarif({sample_race()}, RunInfo{});
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_EQ(log["$schema"], kSarifSchemaUri);
  ASSERT_EQ(log["runs"].size(), 1u);
  const json &driver = log["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"], "snag");
  EXPECT_EQ(driver["version"], tool_version());
  EXPECT_EQ(driver.contains("informationUri"), !information_uri().empty());
  ASSERT_EQ(driver["rules"].size(), 1u);
  EXPECT_EQ(driver["rules"][0]["id"], "data-race");
  EXPECT_EQ(driver["rules"][0]["name"], "DataRace");
  EXPECT_EQ(driver["rules"][0]["shortDescription"]["text"], "data race");
  EXPECT_TRUE(driver["rules"][0].contains("fullDescription"));
}

TEST(SarifWriter, OneRulePerKindAndMatchingRuleIndex) {
  Finding deadlock = sample_race();
  deadlock.kind = "deadlock";
  deadlock.title = "";
  Finding custom = sample_race();
  custom.kind = "lock-leak";
  custom.title = "";
  json run = to_sarif({sample_race(), deadlock, sample_race(), custom}, RunInfo{})["runs"][0];
  const json &rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[2]["shortDescription"]["text"], "lock leak");
  EXPECT_FALSE(rules[2].contains("fullDescription"));
  std::vector<int> indices;
  for (const json &r : run["results"]) {
    indices.push_back(r["ruleIndex"]);
    EXPECT_EQ(rules[r["ruleIndex"].get<size_t>()]["id"], r["ruleId"]);
  }
  EXPECT_EQ(indices, (std::vector<int>{0, 1, 0, 2}));
}

TEST(SarifWriter, PrimaryAndRelatedLocations) {
  json r = result_of(sample_race());
  EXPECT_EQ(r["ruleId"], "data-race");
  EXPECT_EQ(r["level"], "error");
  EXPECT_EQ(r["message"]["text"], sample_race().message);

  ASSERT_EQ(r["locations"].size(), 1u);
  const json &primary = r["locations"][0];
  EXPECT_EQ(primary["physicalLocation"]["artifactLocation"]["uri"], "file:///src/a.cc");
  EXPECT_EQ(primary["physicalLocation"]["region"]["startLine"], 12);
  EXPECT_EQ(primary["physicalLocation"]["region"]["startColumn"], 7);
  EXPECT_EQ(primary["logicalLocations"][0]["name"], "worker(int*)");

  ASSERT_EQ(r["relatedLocations"].size(), 1u);
  const json &related = r["relatedLocations"][0];
  EXPECT_EQ(related["id"], 1);
  EXPECT_EQ(related["message"]["text"], "Previous read of size 4 at 0x7b0400000010 by thread T1");
  EXPECT_EQ(related["physicalLocation"]["region"]["startLine"], 20);
}

TEST(SarifWriter, StacksAndThreadFlowsCarryWholeStacks) {
  json r = result_of(sample_race());
  // Two sides, the lock's acquisition, the allocation, two thread creations.
  ASSERT_EQ(r["stacks"].size(), 6u);
  const json &first = r["stacks"][0];
  EXPECT_EQ(first["message"]["text"], "Write of size 4 at 0x7b0400000010 by thread T2");
  ASSERT_EQ(first["frames"].size(), 2u);
  EXPECT_EQ(first["frames"][0]["location"]["physicalLocation"]["region"]["startLine"], 12);  // innermost first
  EXPECT_EQ(first["frames"][0]["threadId"], 2);

  const json &flows = r["codeFlows"][0]["threadFlows"];
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["id"], "T2");
  ASSERT_EQ(flows[0]["locations"].size(), 2u);
  EXPECT_EQ(flows[0]["locations"][0]["location"]["logicalLocations"][0]["name"], "main");  // call order
  EXPECT_EQ(flows[0]["locations"][0]["nestingLevel"], 0);
  EXPECT_EQ(flows[0]["locations"][1]["nestingLevel"], 1);
}

TEST(SarifWriter, FingerprintsFollowDedup) {
  Finding a = sample_race();
  Finding swapped = sample_race();
  std::swap(swapped.sides[0], swapped.sides[1]);
  Finding other = sample_race();
  other.kind = "atomicity-violation";
  json fa = result_of(a)["partialFingerprints"];
  ASSERT_EQ(fa.size(), 1u);
  EXPECT_EQ(fa, result_of(swapped)["partialFingerprints"]);
  EXPECT_NE(fa, result_of(other)["partialFingerprints"]);
}

TEST(SarifWriter, PropertiesRankAndCount) {
  Finding f = sample_race();
  f.count = 4;
  json r = result_of(f);
  EXPECT_EQ(r["occurrenceCount"], 4);
  EXPECT_DOUBLE_EQ(r["rank"].get<double>(), 90.0);
  const json &p = r["properties"];
  EXPECT_DOUBLE_EQ(p["rank"].get<double>(), 0.9);
  EXPECT_EQ(p["seed"], 12345);
  EXPECT_EQ(p["engine"], "race");
  EXPECT_EQ(p["details"]["state"], "Shared-Modify2");
}

TEST(SarifWriter, LevelsFromSeverity) {
  Finding f = sample_race();
  f.severity = "warning";
  EXPECT_EQ(result_of(f)["level"], "warning");
  f.severity = "note";
  EXPECT_EQ(result_of(f)["level"], "note");
  f.severity = "catastrophic";
  EXPECT_EQ(result_of(f)["level"], "warning");
}

TEST(SarifWriter, FramesWithoutAFileUseLogicalLocationsOnly) {
  Finding f = sample_race();
  f.sides[0].stack = {Frame{"00000000000000aa", "f()", "", 0, 0}};
  f.sides[1].stack = {Frame{"00000000000000bb", "", "", 0, 0}};
  json r = result_of(f);
  const json &primary = r["locations"][0];
  EXPECT_FALSE(primary.contains("physicalLocation"));
  EXPECT_EQ(primary["logicalLocations"][0]["name"], "f()");
  EXPECT_EQ(primary["properties"]["site"], "00000000000000aa");
  const json &related = r["relatedLocations"][0];
  EXPECT_FALSE(related.contains("physicalLocation"));
  EXPECT_EQ(related["logicalLocations"][0]["name"], "<unknown site 00000000000000bb>");
}

TEST(SarifWriter, SidesWithoutStacks) {
  Finding f = sample_race();
  for (Side &s : f.sides) {
    s.stack.clear();
    s.locks.clear();
  }
  json r = result_of(f);
  EXPECT_FALSE(r.contains("locations"));
  EXPECT_FALSE(r.contains("relatedLocations"));
  EXPECT_FALSE(r.contains("codeFlows"));  // a threadFlow needs at least one location
}

TEST(SarifWriter, RunNotesBecomeNotifications) {
  RunInfo run;
  run.program = "./a.out";
  run.signal = 11;
  run.notes = {"program terminated by signal SIGSEGV (11)"};
  run.warnings = {"findings: line 2: not valid JSON; skipped"};
  json invocation = to_sarif({}, run)["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["executionSuccessful"], true);
  ASSERT_EQ(invocation["toolExecutionNotifications"].size(), 2u);
  EXPECT_EQ(invocation["toolExecutionNotifications"][0]["level"], "note");
  EXPECT_EQ(invocation["toolExecutionNotifications"][1]["level"], "warning");
  EXPECT_EQ(invocation["properties"]["programSignal"], 11);
  EXPECT_EQ(invocation["properties"]["program"], "./a.out");
}

TEST(SarifWriter, EngineDetailsGoToTheInvocationProperties) {
  RunInfo run;
  run.details = {{"explore", {{"schedules", 57}, {"replay_file", "./a.out.snag-replay.json"}}}};
  json invocation = to_sarif({}, run)["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["properties"]["explore"]["schedules"], 57);
  EXPECT_EQ(invocation["properties"]["timedOut"], false);
}

TEST(SarifWriter, PathsBecomeUris) {
  EXPECT_EQ(path_to_uri("/src/a.cc"), "file:///src/a.cc");
  EXPECT_EQ(path_to_uri("/src/my file#1.cc"), "file:///src/my%20file%231.cc");
  EXPECT_EQ(path_to_uri("src/a.cc"), "src/a.cc");
  EXPECT_EQ(path_to_uri("c:x.cc"), "c%3Ax.cc");  // not mistaken for a scheme
}

}  // namespace
}  // namespace snag::report
