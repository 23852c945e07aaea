#include "report/text_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sample_finding.h"

namespace snag::report {
namespace {

using testing::frame;
using testing::sample_race;

std::string render(const std::vector<Finding> &findings, bool color = false) {
  std::ostringstream out;
  write_text(out, findings, TextOptions{color});
  return out.str();
}

bool has_line(const std::string &text, const std::string &line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l == line) return true;
  return false;
}

TEST(TextWriter, RendersTheThreadSanitizerLayout) {
  const char *expected =
      "==================\n"
      "WARNING: snag: data race (pid=1234)\n"
      "  Write of size 4 at 0x7b0400000010 by thread T2 (mutexes: M1):\n"
      "    #0 worker(int*) /src/a.cc:12:7\n"
      "    #1 main /src/a.cc:30:3\n"
      "\n"
      "  Previous read of size 4 at 0x7b0400000010 by thread T1:\n"
      "    #0 reader() /src/a.cc:20:9\n"
      "\n"
      "  Location is heap block of size 40 at 0x7b0400000000 allocated by main thread:\n"
      "    #0 main /src/a.cc:25:14\n"
      "\n"
      "  Mutex M1 (0x7b0800000000) acquired here:\n"
      "    #0 lock_it() /src/a.cc:8:5\n"
      "\n"
      "  Thread T2 created by main thread at:\n"
      "    #0 main /src/a.cc:28:5\n"
      "\n"
      "  Thread T1 created by thread T2 at:\n"
      "    #0 spawn() /src/a.cc:40:1\n"
      "\n"
      "  accuracy: field\n"
      "  state: Shared-Modify2\n"
      "  seed: 12345\n"
      "SUMMARY: snag: data race /src/a.cc:12:7 in worker(int*)\n"
      "==================\n"
      "snag: 1 finding (1 data race)\n";
  EXPECT_EQ(render({sample_race()}), expected);
}

TEST(TextWriter, NoFindings) { EXPECT_EQ(render({}), "snag: no findings\n"); }

TEST(TextWriter, MergedDuplicatesSayHowOften) {
  Finding f = sample_race();
  f.count = 3;
  EXPECT_TRUE(has_line(render({f}), "WARNING: snag: data race (pid=1234) (reported 3 times)"));
}

TEST(TextWriter, GlobalVariablesAndNamedLocks) {
  Finding f = sample_race();
  f.heap.reset();
  f.global = GlobalVar{"counter", "0x601040", 4};
  f.sides[0].locks[0].name = "big_lock";
  f.pid.reset();
  std::string text = render({f});
  EXPECT_TRUE(has_line(text, "WARNING: snag: data race"));
  EXPECT_TRUE(has_line(text, "  Location is global 'counter' of size 4 at 0x601040"));
  EXPECT_TRUE(has_line(text, "  Write of size 4 at 0x7b0400000010 by thread T2 (mutexes: big_lock):"));
  EXPECT_TRUE(has_line(text, "  Mutex big_lock acquired here:"));
}

TEST(TextWriter, ShowsTheMessageWhenItAddsInformation) {
  Finding f;
  f.kind = "deadlock";
  f.message = "lock-order inversion: M1 -> M2 -> M1";
  Side a;
  a.description = "Thread T1 waits for M2 while holding M1";
  a.stack = {Frame{"00000000000000aa", "", "", 0, 0}};
  Side b;
  b.description = "Thread T2 waits for M1 while holding M2";
  f.sides = {a, b};
  std::string text = render({f});
  EXPECT_TRUE(has_line(text, "WARNING: snag: deadlock"));
  EXPECT_TRUE(has_line(text, "  lock-order inversion: M1 -> M2 -> M1"));
  EXPECT_TRUE(has_line(text, "    #0 <unknown site 00000000000000aa>"));
  EXPECT_TRUE(has_line(text, "    <no stack>"));
  EXPECT_TRUE(has_line(text, "SUMMARY: snag: deadlock <unknown site 00000000000000aa>"));
  EXPECT_FALSE(has_line(render({sample_race()}), "  " + sample_race().message));
}

TEST(TextWriter, NonStringDetailsAreShownAsJson) {
  Finding f = sample_race();
  f.details = {{"delay_ms", 100}, {"pairs", {1, 2}}};
  std::string text = render({f});
  EXPECT_TRUE(has_line(text, "  delay_ms: 100"));
  EXPECT_TRUE(has_line(text, "  pairs: [1,2]"));
}

TEST(TextWriter, SummaryCountsKinds) {
  Finding deadlock = sample_race();
  deadlock.kind = "deadlock";
  deadlock.title = "";
  std::string text = render({sample_race(), deadlock, sample_race()});
  EXPECT_TRUE(has_line(text, "snag: 3 findings (2 data races, 1 deadlock)"));
}

TEST(TextWriter, ColorOnlyWhenAsked) {
  EXPECT_EQ(render({sample_race()}).find('\033'), std::string::npos);
  std::string colored = render({sample_race()}, true);
  EXPECT_NE(colored.find("\033[1m\033[31mWARNING: snag: data race (pid=1234)\033[0m"), std::string::npos);
  EXPECT_NE(colored.find("\033[0m"), std::string::npos);
}

}  // namespace
}  // namespace snag::report
