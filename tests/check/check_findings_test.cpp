// Tests of how `snag check`'s findings enter the shared report model and of
// their compiler-style text.
#include "check_findings.h"

#include <sstream>

#include <gtest/gtest.h>

#include "report/diagnostic_writer.h"
#include "report/finding.h"

using namespace snag;

namespace {

interp::CheckFinding counter_race() {
  interp::CheckFinding f;
  f.kind = interp::CheckFinding::Kind::kRace;
  f.variable = "counter";
  f.entry = "main";
  f.message = "data race on 'counter'";
  f.sides = {{{"race.cc", 8, 5}, "thread T1 started at race.cc:14:15", true, "worker()"},
             {{"race.cc", 16, 10}, "main thread", false, "main"}};
  return f;
}

interp::CheckFinding abba() {
  interp::CheckFinding f;
  f.kind = interp::CheckFinding::Kind::kDeadlock;
  f.entry = "main";
  f.message = "lock-order inversion (potential deadlock)";
  f.sides = {{{"abba.cc", 7, 3}, "thread T1 started at abba.cc:20:15", false, "one()"},
             {{"abba.cc", 8, 3}, "thread T1 started at abba.cc:20:15", false, "one()"},
             {{"abba.cc", 12, 3}, "thread T2 started at abba.cc:21:15", false, "two()"},
             {{"abba.cc", 13, 3}, "thread T2 started at abba.cc:21:15", false, "two()"}};
  return f;
}

std::string diagnostics_of(const std::vector<report::Finding> &findings) {
  std::ostringstream out;
  report::write_diagnostics(out, findings, {});
  return out.str();
}

}  // namespace

TEST(ThreadDescription, MainThreadAndStartedThreads) {
  cli::ThreadDescription main_thread = cli::parse_thread_description("main thread");
  EXPECT_EQ(main_thread.name, "main thread");
  EXPECT_EQ(main_thread.id, 0);
  EXPECT_FALSE(main_thread.created_at);

  cli::ThreadDescription t1 = cli::parse_thread_description("thread T1 started at dir/w.cc:12:5");
  EXPECT_EQ(t1.name, "thread T1");
  EXPECT_EQ(t1.id, 1);
  ASSERT_TRUE(t1.created_at);
  EXPECT_EQ(*t1.created_at, (interp::SourceSite{"dir/w.cc", 12, 5}));

  cli::ThreadDescription no_column = cli::parse_thread_description("thread T12 started at w.cc:7");
  EXPECT_EQ(no_column.id, 12);
  ASSERT_TRUE(no_column.created_at);
  EXPECT_EQ(*no_column.created_at, (interp::SourceSite{"w.cc", 7, 0}));

  cli::ThreadDescription running = cli::parse_thread_description("thread T2 running Counter::add()");
  EXPECT_EQ(running.name, "thread T2 running Counter::add()");
  EXPECT_EQ(running.id, 2);
  EXPECT_FALSE(running.created_at);

  // Any other shape is kept as the name, without an id.
  cli::ThreadDescription other = cli::parse_thread_description("async task #3");
  EXPECT_EQ(other.name, "async task #3");
  EXPECT_FALSE(other.id);
}

TEST(ToReportFinding, RaceHasTwoSidesAndTheStartedThread) {
  report::Finding f = cli::to_report_finding(counter_race(), 4711);
  EXPECT_EQ(f.engine, "check");
  EXPECT_EQ(f.kind, "data-race");
  EXPECT_EQ(f.severity, "warning");
  EXPECT_EQ(f.seed, 4711u);
  EXPECT_EQ(f.message, "data race on 'counter'");
  ASSERT_EQ(f.sides.size(), 2u);
  EXPECT_EQ(f.sides[0].description, "write by thread T1");
  EXPECT_EQ(f.sides[0].thread, 1);
  EXPECT_EQ(f.sides[0].stack.front().display(), "worker() race.cc:8:5");
  EXPECT_EQ(f.sides[1].description, "conflicting read by main thread");
  EXPECT_EQ(f.sides[1].thread, 0);
  ASSERT_EQ(f.threads.size(), 2u);
  EXPECT_EQ(f.threads[0].display_name(), "T1");
  EXPECT_EQ(f.threads[0].stack.front().location(), "race.cc:14:15");
  EXPECT_EQ(f.details["variable"], "counter");
  EXPECT_EQ(f.details["entry"], "main");
  // It survives the findings format unchanged, like every engine's.
  std::string error;
  std::vector<std::string> notes;
  std::optional<report::Finding> back = report::finding_from_json(report::to_json(f), error, notes);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, f);
}

TEST(Diagnostics, RaceInCompilerStyle) {
  EXPECT_EQ(diagnostics_of({cli::to_report_finding(counter_race(), 4711)}),
            "race.cc:8:5: warning: data race on 'counter' (write by thread T1) [snag-check-race]\n"
            "race.cc:16:10: note: conflicting read by main thread\n"
            "race.cc:14:15: note: thread T1 created here\n"
            "snag: 1 finding (1 data race)\n");
}

TEST(Diagnostics, DeadlockHasANotePerAcquisition) {
  EXPECT_EQ(diagnostics_of({cli::to_report_finding(abba(), 1)}),
            "abba.cc:7:3: warning: lock-order inversion (potential deadlock) (lock acquired by "
            "thread T1 in one()) [snag-check-deadlock]\n"
            "abba.cc:8:3: note: lock acquired by thread T1 in one()\n"
            "abba.cc:12:3: note: lock acquired by thread T2 in two()\n"
            "abba.cc:13:3: note: lock acquired by thread T2 in two()\n"
            "abba.cc:20:15: note: thread T1 created here\n"
            "abba.cc:21:15: note: thread T2 created here\n"
            "snag: 1 finding (1 deadlock)\n");
}

TEST(Diagnostics, PathsUnderTheWorkingDirectoryAreShownRelative) {
  interp::CheckFinding race = counter_race();
  race.sides[0].site.file = "/home/me/src/race.cc";
  race.sides[1].site.file = "/elsewhere/race.cc";
  std::ostringstream out;
  report::write_diagnostics(out, {cli::to_report_finding(race, 1)}, {false, "/home/me"});
  EXPECT_EQ(out.str().substr(0, out.str().find('\n', out.str().find('\n') + 1)),
            "src/race.cc:8:5: warning: data race on 'counter' (write by thread T1) [snag-check-race]\n"
            "/elsewhere/race.cc:16:10: note: conflicting read by main thread");
}

TEST(Diagnostics, NoFindings) { EXPECT_EQ(diagnostics_of({}), "snag: no findings\n"); }

TEST(Diagnostics, RuleNameOfOtherEngines) {
  report::Finding f;
  f.engine = "tsv";
  f.kind = "thread-safety-violation";
  EXPECT_EQ(report::diagnostic_rule_name(f), "snag-tsv-thread-safety-violation");
}
