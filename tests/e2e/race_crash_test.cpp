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
  EXPECT_EQ(crash["details"]["after_race"], "yes");
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
  // No race before it: snag notes how the program ended, and where.
  RunResult r = run_command({snag_bin(), "race", "--format", "json", program_path("crash_after_finding")});
  EXPECT_EQ(r.exit_status, 128 + 6) << r.err;
  json report = json::parse(r.out);
  EXPECT_TRUE(report["findings"].empty()) << r.out;
  ASSERT_EQ(report["run"]["notes"].size(), 1u) << r.out;
  EXPECT_EQ(report["run"]["notes"][0], "program terminated by signal SIGABRT (6) at " +
                                           source_path("crash_after_finding.c") + ":12:3 in main, thread T0")
      << r.out;
}

TEST(RaceCrash, ACrashWithoutARaceInAThreadNamesItsLineAndThread) {
  RunResult r = run_command({snag_bin(), "race", program_path("crash_in_thread")});
  EXPECT_EQ(r.exit_status, 128 + 11) << r.err;
  const std::string where = "crash_in_thread.c:" + std::to_string(marker_line("crash_in_thread.c", "segv")) + ":";
  const std::string note = "snag: program terminated by signal SIGSEGV (11) at ";
  size_t at = r.err.find(note);
  ASSERT_NE(at, std::string::npos) << r.err;
  std::string line = r.err.substr(at, r.err.find('\n', at) - at);
  EXPECT_NE(line.find(where), std::string::npos) << line;
  EXPECT_NE(line.find(" in worker, thread T1"), std::string::npos) << line;
  EXPECT_EQ(r.out.find("WARNING: snag:"), std::string::npos) << "not a finding: " << r.out;
}

TEST(RaceCrash, ACrashWithoutARaceRunAloneIsReportedWithoutCommandLineDetails) {
  RunResult r = run_command({program_path("crash_in_thread")}, {"SNAG_OPTIONS=engine=race"});
  EXPECT_EQ(r.exit_status, 128 + 11) << r.err;
  EXPECT_NE(r.err.find("WARNING: snag: crash"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("SEGV (signal 11) on address"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("after_race"), std::string::npos) << "a detail only snag race reads: " << r.err;
}

}  // namespace
}  // namespace snag::e2e
