// common/finding_text: the layout both the runtime's standalone output and
// `snag`'s text report use. text_writer_test checks the whole block through
// the report model; these check the pieces the runtime relies on directly.
#include "common/finding_text.h"

#include <gtest/gtest.h>

#include <string>

namespace snag::text {
namespace {

class StringSink final : public Sink {
 public:
  void write(const char *data, size_t size) override { text.append(data, size); }
  std::string text;
};

std::string frame_text(const Frame &f) {
  StringSink out;
  write_frame(out, f);
  return out.text;
}

TEST(FindingText, FramesShowWhatIsKnown) {
  Frame f;
  EXPECT_EQ(frame_text(f), "<unknown frame>");
  f.site_number = 0xab;
  EXPECT_EQ(frame_text(f), "<unknown site 00000000000000ab>");
  f.site = "1234";
  EXPECT_EQ(frame_text(f), "<unknown site 1234>");
  f.function = "main";
  EXPECT_EQ(frame_text(f), "main");
  f.file = "/src/a.c";
  EXPECT_EQ(frame_text(f), "main /src/a.c");
  f.line = 12;
  EXPECT_EQ(frame_text(f), "main /src/a.c:12");
  f.column = 3;
  EXPECT_EQ(frame_text(f), "main /src/a.c:12:3");
  f.function = "";
  EXPECT_EQ(frame_text(f), "/src/a.c:12:3");
}

TEST(FindingText, CodeFramesShowTheirModuleAndOffsetWithoutAFile) {
  Frame f;
  f.module = "/lib/libc.so.6";
  f.module_offset = 0x3e55c;
  EXPECT_EQ(frame_text(f), "(/lib/libc.so.6+0x3e55c)");
  f.function = "exit";
  EXPECT_EQ(frame_text(f), "exit (/lib/libc.so.6+0x3e55c)");
  f.file = "exit.c";
  f.line = 146;
  EXPECT_EQ(frame_text(f), "exit exit.c:146") << "a known line is enough";
}

TEST(FindingText, AccessDescriptions) {
  StringSink out;
  ThreadRef main_thread{true, 0, {}}, t3{true, 3, {}}, named{true, 4, "worker"};
  write_access_description(out, false, true, 4, "0x10", t3);
  EXPECT_EQ(out.text, "Write of size 4 at 0x10 by thread T3");
  out.text.clear();
  write_access_description(out, true, false, 8, "0x20", main_thread);
  EXPECT_EQ(out.text, "Previous read of size 8 at 0x20 by main thread");
  out.text.clear();
  write_access_description(out, true, true, 1, "0x30", named);
  EXPECT_EQ(out.text, "Previous write of size 1 at 0x30 by thread worker");
}

TEST(FindingText, FixedSinkCutsAndTerminates) {
  char buffer[8];
  FixedSink sink(buffer, sizeof buffer);
  EXPECT_STREQ(buffer, "");
  sink.write("abc", 3);
  sink.write("defghij", 7);
  EXPECT_STREQ(buffer, "abcdefg");
}

TEST(FindingText, PrimaryFrameSkipsTheToolchainsHeaders) {
  Frame frames[3];
  frames[0].function = "std::mutex::lock";
  frames[0].file = "/usr/include/c++/12/bits/std_mutex.h";
  frames[1].function = "<no file>";
  frames[2].function = "worker";
  frames[2].file = "/src/w.cc";
  EXPECT_EQ(primary_frame(Stack{frames, 3}), &frames[2]);
  EXPECT_EQ(primary_frame(Stack{frames, 2}), &frames[0]);  // none of the program's own
  EXPECT_EQ(primary_frame(Stack{}), nullptr);
  EXPECT_TRUE(in_toolchain_header("/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h"));
  EXPECT_FALSE(in_toolchain_header("/usr/src/app.c"));
}

TEST(FindingText, AMinimalFindingAsTheRuntimeGivesIt) {
  // Locks by address only (numbered), the same lock on both sides, one
  // acquisition stack shown once; no threads listed; a kind without title.
  Frame top{"worker", "/src/w.cc", 9, 5, {}, 0};
  Frame taken{"take", "/src/w.cc", 4, 3, {}, 0};
  Lock current_locks[] = {{{}, "0xa0", Stack{&taken, 1}}, {{}, "0xb0", Stack{}}};
  Lock previous_locks[] = {{{}, "0xa0", Stack{&taken, 1}}};
  Side sides[] = {{"Write of size 4 at 0x10 by thread T1", current_locks, 2, Stack{&top, 1}},
                  {"Previous read of size 4 at 0x10 by main thread", previous_locks, 1, Stack{}}};
  Finding f;
  f.kind = "data-race";
  f.message = "write by thread T1 races with read by main thread";
  f.sides = sides;
  f.side_count = 2;
  f.has_seed = true;
  f.seed = 7;
  f.primary = primary_frame(sides[0].stack);
  StringSink out;
  write_finding_text(out, f, Style{});
  EXPECT_EQ(out.text,
            "==================\n"
            "WARNING: snag: data race\n"
            "  write by thread T1 races with read by main thread\n"
            "\n"
            "  Write of size 4 at 0x10 by thread T1 (mutexes: M1, M2):\n"
            "    #0 worker /src/w.cc:9:5\n"
            "\n"
            "  Previous read of size 4 at 0x10 by main thread (mutexes: M1):\n"
            "    <no stack>\n"
            "\n"
            "  Mutex M1 (0xa0) acquired here:\n"
            "    #0 take /src/w.cc:4:3\n"
            "\n"
            "  seed: 7\n"
            "SUMMARY: snag: data race /src/w.cc:9:5 in worker\n"
            "==================\n");
}

}  // namespace
}  // namespace snag::text
