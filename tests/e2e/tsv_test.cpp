// snag tsv end to end: a violation is reported even when the program
// crashes or hangs afterwards; and snag race describes the same bug as one
// race between the two calls.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

std::string snag() { return std::string(SNAG_BIN_DIR) + "/snag"; }

std::string fresh_trap_file(const std::string &name) {
  std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/" +
                     name + ".snag-traps";
  std::remove(path.c_str());
  return path;
}

void expect_push_back_violation(const RunResult &r) {
  ASSERT_EQ(r.exit_status, 66) << r.err;
  auto findings = nlohmann::json::parse(r.out)["findings"];
  ASSERT_EQ(findings.size(), 1u) << r.out;
  const auto &f = findings[0];
  EXPECT_EQ(f["kind"], "thread-safety-violation");
  EXPECT_EQ(f["details"]["object"], "std::vector<int>");
  int line = marker_line("tsv_faults.cc", "push");
  for (const auto &side : f["sides"]) EXPECT_EQ(side["stack"][0]["line"], line) << r.out;
}

TEST(Tsv, FindingsSurviveACrashAfterThem) {
  RunResult r = run_command({snag(), "tsv", "--runs", "2", "--seed", "1", "--format", "json",
                             "--trap-file", fresh_trap_file("tsv_crash"),
                             program_path("tsv_faults"), "crash"});
  expect_push_back_violation(r);
  EXPECT_NE(r.err.find("terminated by signal SIGABRT"), std::string::npos) << r.err;
}

TEST(Tsv, FindingsSurviveAHangCutShortByTheTimeout) {
  RunResult r = run_command({snag(), "tsv", "--runs", "2", "--seed", "1", "--timeout", "3",
                             "--format", "json", "--trap-file", fresh_trap_file("tsv_hang"),
                             program_path("tsv_faults"), "hang"});
  expect_push_back_violation(r);
  EXPECT_NE(r.err.find("timed out after 3 s"), std::string::npos) << r.err;
}

TEST(Tsv, RaceDescribesTheSameBugAsOneRaceBetweenTheCalls) {
  RunResult r = run_command({snag(), "race", "--format", "json", program_path("tsv_faults")});
  ASSERT_EQ(r.exit_status, 66) << r.err;
  auto findings = nlohmann::json::parse(r.out)["findings"];
  ASSERT_EQ(findings.size(), 1u) << r.out;
  const auto &f = findings[0];
  EXPECT_EQ(f["kind"], "data-race");
  EXPECT_EQ(f["details"]["object"], "std::vector<int>");
  EXPECT_EQ(f["details"]["operations"], "push_back (write) vs push_back (write)");
  std::string at = "tsv_faults.cc:" + std::to_string(marker_line("tsv_faults.cc", "push"));
  EXPECT_NE(f["message"].get<std::string>().find(at), std::string::npos) << f["message"];
}

}  // namespace
}  // namespace snag::e2e
