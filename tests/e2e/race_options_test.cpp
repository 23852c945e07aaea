// The race engine's annotations and suppressions, through the runtime alone
// (a program run on its own with SNAG_OPTIONS) and through `snag race`.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

TEST(RaceOptions, BenignAnnotationHidesOnlyThatRace) {
  RunResult r = run_command({program_path("race_annotated")}, {"SNAG_OPTIONS=engine=race"});
  EXPECT_EQ(r.exit_status, 66) << r.err;
  std::string other_line = "race_annotated.cc:" + std::to_string(marker_line("race_annotated.cc", "other"));
  EXPECT_NE(r.err.find(other_line), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("bump_statistics"), std::string::npos) << "annotated benign: " << r.err;
  EXPECT_NE(r.err.find("snag: reported 1 warning"), std::string::npos) << r.err;
}

// The race engine's comparison interceptors compare themselves (the bytes
// compared are the accesses); their results must be libc's.
TEST(RaceOptions, ComparisonsUnderTheRaceEngineGiveLibcsResults) {
  RunResult plain = run_command({program_path("comparisons")}, {"SNAG_OPTIONS=engine=none"});
  EXPECT_EQ(plain.exit_status, 0) << plain.err;
  RunResult race = run_command({program_path("comparisons")}, {"SNAG_OPTIONS=engine=race"});
  EXPECT_EQ(race.exit_status, 0) << race.err;
}

// pthread_mutex_lock may try a held mutex mutex_spin times before the real
// lock sleeps; every mutex type must still answer as glibc answers (an
// error-checking relock, a robust mutex whose owner died, a recursive
// relock) and exclude as glibc excludes, with tries, with many, and with none.
TEST(RaceOptions, MutexLockAnswersAsGlibcWithAndWithoutTries) {
  for (const char *options : {"engine=race", "engine=race:mutex_spin=1000", "engine=race:mutex_spin=0"}) {
    RunResult r = run_command({program_path("mutex_answers")}, {std::string("SNAG_OPTIONS=") + options});
    EXPECT_EQ(r.exit_status, 0) << options << "\n" << r.err;
    EXPECT_EQ(r.out, "mutex answers: 0 wrong\n") << options;
    EXPECT_EQ(r.err, "") << options;
  }
}

TEST(RaceOptions, SuppressionsFileInThreadSanitizerSyntax) {
  std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                     "/snag_race_suppressions.txt";
  std::ofstream(path) << "# ThreadSanitizer syntax\nrace:bump_other\n";
  RunResult alone = run_command({program_path("race_annotated")},
                                {"SNAG_OPTIONS=engine=race:suppressions=" + path});
  EXPECT_EQ(alone.exit_status, 0) << alone.err;
  EXPECT_NE(alone.err.find("0 warnings (1 suppressed)"), std::string::npos) << alone.err;
  RunResult cli = run_command({std::string(SNAG_BIN_DIR) + "/snag", "race", "--format", "json",
                               "--suppressions", path, program_path("race_annotated")});
  EXPECT_EQ(cli.exit_status, 0) << cli.err;
  EXPECT_TRUE(nlohmann::json::parse(cli.out)["findings"].empty()) << cli.out;
  std::remove(path.c_str());
}

TEST(RaceOptions, CliReportsBothSidesAsJson) {
  RunResult r = run_command({std::string(SNAG_BIN_DIR) + "/snag", "race", "--format", "json",
                             program_path("race_annotated")});
  ASSERT_EQ(r.exit_status, 66) << r.err;
  auto findings = nlohmann::json::parse(r.out)["findings"];
  ASSERT_EQ(findings.size(), 1u) << r.out;
  const auto &f = findings[0];
  EXPECT_EQ(f["kind"], "data-race");
  ASSERT_EQ(f["sides"].size(), 2u);
  for (const auto &side : f["sides"]) {
    EXPECT_EQ(side["stack"][0]["function"], "bump_other()");
    EXPECT_EQ(side["stack"][0]["line"], marker_line("race_annotated.cc", "other"));
  }
  EXPECT_EQ(f["global"]["name"], "other");
  EXPECT_TRUE(f["details"].contains("accuracy"));
}

}  // namespace
}  // namespace snag::e2e
