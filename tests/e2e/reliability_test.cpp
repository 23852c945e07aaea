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

}  // namespace
}  // namespace snag::e2e
