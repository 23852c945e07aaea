// Findings reach the user whatever the program does to its descriptors
// (issue 13). Label `reliability`.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

std::string contents(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(Reliability, FindingsSurviveAProgramThatClosesEveryDescriptor) {
  std::string own = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                    "/snag_closes_descriptors.txt";
  RunResult r = run_command({std::string(SNAG_BIN_DIR) + "/snag", "race", "--format", "json",
                             program_path("closes_descriptors"), own});
  ASSERT_EQ(r.exit_status, 66) << r.err;
  auto findings = nlohmann::json::parse(r.out)["findings"];
  ASSERT_EQ(findings.size(), 1u) << r.out;
  EXPECT_EQ(findings[0]["sides"][0]["stack"][0]["line"],
            marker_line("closes_descriptors.c", "race"));
  EXPECT_EQ(contents(own), "program line\nlast line\n");
  std::remove(own.c_str());
}

TEST(Reliability, AMissingFindingsDescriptorFallsBackToStderr) {
  RunResult r = run_command({program_path("closes_descriptors")},
                            {"SNAG_OPTIONS=engine=race:findings_fd=99"});
  EXPECT_EQ(r.exit_status, 66) << r.err;
  EXPECT_NE(r.err.find("findings_fd is not an open descriptor; reporting on stderr"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("WARNING: snag: data race"), std::string::npos) << r.err;
}

TEST(Reliability, AChildThatOutlivesItsParentStillReports) {
  RunResult r = run_command({std::string(SNAG_BIN_DIR) + "/snag", "race", "--format", "json",
                             program_path("orphan_race")});
  ASSERT_EQ(r.exit_status, 66) << r.err;
  auto findings = nlohmann::json::parse(r.out)["findings"];
  ASSERT_EQ(findings.size(), 1u) << r.out;
  EXPECT_EQ(findings[0]["sides"][0]["stack"][0]["line"], marker_line("orphan_race.c", "race"));
}

// Learning counts every access, also those of thread_local destructors,
// which run after the thread's exit event: of two joined threads, and of a
// detached thread that ended before the program exits.
TEST(Reliability, LearnKeepsTheCountsOfThreadLocalDestructors) {
  std::string learned = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                        "/snag_thread_local_destructors.learn";
  std::remove(learned.c_str());
  RunResult r = run_command({program_path("thread_local_destructors")},
                            {"SNAG_OPTIONS=engine=learn:learn_out=" + learned});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  // "count SITE N" lines: the destructors' write ran 3 x 10,000 times, each
  // other access of the program a few times.
  std::istringstream lines(contents(learned));
  uint64_t most = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string fact, site;
    uint64_t n = 0;
    if (fields >> fact >> site >> n && fact == "count" && n > most) most = n;
  }
  EXPECT_EQ(most, 30000u) << contents(learned);
  std::remove(learned.c_str());
}

TEST(Reliability, ASuppressionOfUnknownTypeIsReported) {
  std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                     "/snag_unknown_suppression.txt";
  std::ofstream(path) << "rcae:bump\n";
  RunResult r = run_command({program_path("closes_descriptors")},
                            {"SNAG_OPTIONS=engine=race:suppressions=" + path});
  EXPECT_EQ(r.exit_status, 66) << r.err;  // the race is not suppressed...
  EXPECT_NE(r.err.find("suppressions: ignoring a line of unknown type 'rcae'"), std::string::npos)
      << r.err;  // ...and the user is told why
  std::remove(path.c_str());
}

// exitcode=999 used to end the program with status 231 (999 mod 256), and
// an unknown key or a bad number passed without a word.
TEST(Reliability, BadRuntimeOptionsAreRefusedInOneLineEach) {
  RunResult r = run_command({program_path("closes_descriptors")},
                            {"SNAG_OPTIONS=engine=race:exitcode=999:halt_on_eror=1:delay_ms=soon"});
  EXPECT_EQ(r.exit_status, 66) << r.err;
  EXPECT_NE(r.err.find("snag: SNAG_OPTIONS: exitcode=999 is out of range (0..255); using the default, 66\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("snag: SNAG_OPTIONS: unknown key 'halt_on_eror' ignored"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("snag: SNAG_OPTIONS: delay_ms=soon is not a whole number (1..60000); using the default, 100\n"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace snag::e2e
