// A program that crashes after snag race reported a race (issue 14): the
// crash is a finding of its own (signal, address, the line it happened at)
// in text, JSON and SARIF, next to the race, and the exit status is the
// crash's (128 + signal, as a shell reports it), not 66.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

using nlohmann::json;

const std::string kSource = "race_then_crash.c";

std::string snag_bin() { return std::string(SNAG_BIN_DIR) + "/snag"; }

TEST(RaceCrash, SegvAfterARaceIsAFindingAndTheExitStatus) {
  RunResult r = run_command({snag_bin(), "race", "--format", "json", program_path("race_then_crash"), "segv"});
  EXPECT_EQ(r.exit_status, 128 + 11) << r.err;
  json report = json::parse(r.out);
  const json &findings = report["findings"];
  ASSERT_EQ(findings.size(), 2u) << r.out;
  EXPECT_EQ(findings[0]["kind"], "data-race");
  const json &crash = findings[1];
  EXPECT_EQ(crash["kind"], "crash");
  EXPECT_EQ(crash["details"]["signal"], "SIGSEGV");
  ASSERT_GE(crash["sides"][0]["stack"].size(), 1u) << crash.dump();
  const json &top = crash["sides"][0]["stack"][0];
  EXPECT_EQ(top["function"], "main");
  EXPECT_EQ(top["line"], marker_line(kSource, "segv")) << top.dump();
  EXPECT_EQ(report["run"]["signal"], 11);
}

TEST(RaceCrash, AbortAfterARaceInTextAndSarif) {
  RunResult r = run_command({snag_bin(), "race", program_path("race_then_crash"), "abort"});
  EXPECT_EQ(r.exit_status, 128 + 6) << r.err;
  const std::string text = r.out + r.err;
  std::string abort_at = kSource + ":" + std::to_string(marker_line(kSource, "abort")) + ":";
  EXPECT_NE(text.find("WARNING: snag: crash after a data race"), std::string::npos) << text;
  EXPECT_NE(text.find("SIGABRT (signal 6) in thread T0"), std::string::npos) << text;
  EXPECT_NE(text.find(abort_at), std::string::npos) << text;
  EXPECT_NE(text.find("WARNING: snag: data race"), std::string::npos) << "the race stays: " << text;

  RunResult sarif = run_command({snag_bin(), "race", "--format", "sarif", program_path("race_then_crash"), "abort"});
  EXPECT_EQ(sarif.exit_status, 128 + 6) << sarif.err;
  const json log = json::parse(sarif.out);
  const json &results = log["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u) << sarif.out;
  EXPECT_EQ(results[0]["ruleId"], "data-race");
  EXPECT_EQ(results[1]["ruleId"], "crash");
}

TEST(RaceCrash, ProgramRunAloneReportsTheCrashAndDiesOfIt) {
  RunResult r = run_command({program_path("race_then_crash"), "segv"}, {"SNAG_OPTIONS=engine=race"});
  EXPECT_EQ(r.exit_status, 128 + 11) << r.err;
  EXPECT_NE(r.err.find("WARNING: snag: data race"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("SEGV (signal 11) on address"), std::string::npos) << r.err;
}

TEST(RaceCrash, ACrashWithoutARaceAddsNoFinding) {
  // No race before it: snag only notes how the program ended.
  RunResult r = run_command({snag_bin(), "race", "--format", "json", program_path("crash_after_finding")});
  EXPECT_EQ(r.exit_status, 128 + 6) << r.err;
  EXPECT_TRUE(json::parse(r.out)["findings"].empty()) << r.out;
}

}  // namespace
}  // namespace snag::e2e
