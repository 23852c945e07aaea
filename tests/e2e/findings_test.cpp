// The findings path from runtime to output: JSON lines written at once (so a
// crash right after loses nothing), stacks resolved through the site table,
// thread creation stacks, heap blocks, and the standalone text report with
// its exit status. The record engine's report_on option produces findings
// without a detection engine.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

using nlohmann::json;

bool frame_at(const json &frame, const std::string &source, int line) {
  std::string file = frame.value("file", "");
  return frame.value("line", 0) == line && file.size() >= source.size() &&
         file.compare(file.size() - source.size(), source.size(), source) == 0;
}

TEST(Findings, WrittenBeforeTheProgramCrashes) {
  RunResult r = run_recorded(program_path("crash_after_finding"), "report_on=thread-join");
  EXPECT_EQ(r.exit_status, 128 + 6) << "the program aborts";
  ASSERT_EQ(r.findings.size(), 1u) << r.err;
  json f = json::parse(r.findings[0]);
  EXPECT_EQ(f["snag"], 1);
  EXPECT_EQ(f["engine"], "record");
  EXPECT_EQ(f["kind"], "recorded-event");
  EXPECT_TRUE(f.contains("seed"));
  const std::string src = "crash_after_finding.c";
  ASSERT_EQ(f["sides"].size(), 2u);
  const json &joiner = f["sides"][0];
  EXPECT_EQ(joiner["thread"], 0);
  ASSERT_GE(joiner["stack"].size(), 1u);
  EXPECT_TRUE(frame_at(joiner["stack"][0], src, marker_line(src, "join"))) << joiner.dump();
  EXPECT_EQ(joiner["stack"][0]["function"], "main");
  EXPECT_EQ(joiner["stack"][0]["site"].get<std::string>().size(), 16u);
  const json &joined = f["sides"][1];
  EXPECT_EQ(joined["thread"], 1);
  EXPECT_TRUE(frame_at(joined["stack"][0], src, marker_line(src, "create"))) << joined.dump();
  // The thread list names T1, its parent and where it was created.
  bool described = false;
  for (const json &t : f["threads"])
    if (t["id"] == 1) {
      described = true;
      EXPECT_EQ(t["parent"], 0);
      EXPECT_TRUE(frame_at(t["stack"][0], src, marker_line(src, "create")));
    }
  EXPECT_TRUE(described);
}

TEST(Findings, HeapBlockAndStackAfterExceptions) {
  RunResult r = run_recorded(program_path("exceptions"), "report_on=alloc:record_only=none");
  ASSERT_EQ(r.exit_status, 66) << "findings were reported: " << r.err;
  EXPECT_EQ(r.out, "caught deep\n");
  const std::string src = "exceptions.cc";
  int alloc_line = marker_line(src, "after-catch"), call_line = marker_line(src, "call-after-catch");
  int matches = 0;
  for (const std::string &line : r.findings) {
    json f = json::parse(line);
    const json &stack = f["sides"][0]["stack"];
    if (stack.empty() || !frame_at(stack[0], src, alloc_line)) continue;
    ++matches;
    // after_catch() <- main(): the frames that the exceptions unwound without
    // running their exits (thrower, 31 deep) must be gone.
    ASSERT_EQ(stack.size(), 2u) << stack.dump();
    EXPECT_EQ(stack[0]["function"], "after_catch()");
    EXPECT_TRUE(frame_at(stack[1], src, call_line));
    EXPECT_EQ(stack[1]["function"], "main");
    ASSERT_TRUE(f.contains("heap"));
    EXPECT_EQ(f["heap"]["size"], 16);
    EXPECT_EQ(f["heap"]["stack"], stack);
  }
  EXPECT_EQ(matches, 1);
}

TEST(Findings, ProgramRunAloneReportsTextAndExits66) {
  RunResult r = run_command({program_path("threads")},
                            {"SNAG_OPTIONS=engine=record:events=/dev/null:report_on=thread-join"});
  EXPECT_EQ(r.exit_status, 66);
  EXPECT_EQ(r.out, "value 3\n") << "the program's own output is untouched";
  // The same layout as `snag report`: the finding's title, not its kind.
  EXPECT_NE(r.err.find("WARNING: snag: recorded event"), std::string::npos) << r.err;
  std::string join_at = "threads.c:" + std::to_string(marker_line("threads.c", "join-a")) + ":";
  EXPECT_NE(r.err.find(join_at), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Thread T1 created by main thread at:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("snag: reported 3 warnings"), std::string::npos) << r.err;
}

TEST(Findings, ExitcodeOptionAndHaltOnError) {
  RunResult keep = run_command({program_path("threads")},
                               {"SNAG_OPTIONS=engine=record:events=/dev/null:report_on=thread-join:exitcode=0"});
  EXPECT_EQ(keep.exit_status, 0);
  RunResult halt = run_command(
      {program_path("threads")},
      {"SNAG_OPTIONS=engine=record:events=/dev/null:report_on=thread-join:halt_on_error=1:exitcode=9"});
  EXPECT_EQ(halt.exit_status, 9);
  EXPECT_EQ(halt.out, "") << "halted at the first join, before printing";
  EXPECT_NE(halt.err.find("snag: reported 1 warning"), std::string::npos) << halt.err;
}

TEST(Findings, UnknownEngineAndKeysAreReportedOnce) {
  RunResult r = run_command({program_path("threads")}, {"SNAG_OPTIONS=engine=nonesuch:colour=red"});
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_NE(r.err.find("snag: SNAG_OPTIONS: this runtime has no engine 'nonesuch'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("snag: SNAG_OPTIONS: unknown key 'colour' ignored"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace snag::e2e
