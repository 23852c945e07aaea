#include "report/resolve.h"

#include <gtest/gtest.h>

#include "sample_finding.h"

namespace snag::report {
namespace {

const char *kTable =
    "M\t1\ta.o\n"
    "F\t0\t/src/a.cc\n"
    "N\t0\tworker(int*)\t_Z6workerPi\n"
    "S\t00000000000000aa\t1\t12\t7\t0\t0\n"
    "S\t00000000000000bb\t6\t40\t2\t0\t0\n";

Frame bare(std::string site) { return Frame{std::move(site), "", "", 0, 0}; }

TEST(Resolve, FillsMissingFieldsFromTheSiteTable) {
  SiteTable table = SiteTable::parse(kTable);
  Finding f;
  Side side;
  side.stack = {bare("00000000000000aa"), bare("00000000000000cc")};
  side.locks = {Lock{"0x1", "", {bare("00000000000000bb")}}};
  f.sides = {side};
  f.threads = {ThreadInfo{1, "", 0, {bare("00000000000000bb")}}};
  f.heap = HeapBlock{"0x2", 8, 0, {bare("00000000000000aa")}};

  ResolveStats stats = resolve(f, table);
  EXPECT_EQ(stats.frames, 5u);
  EXPECT_EQ(stats.filled, 4u);
  EXPECT_EQ(stats.unresolved, 1u);

  EXPECT_EQ(f.sides[0].stack[0], (Frame{"00000000000000aa", "worker(int*)", "/src/a.cc", 12, 7}));
  EXPECT_EQ(f.sides[0].stack[1].display(), "<unknown site 00000000000000cc>");
  EXPECT_EQ(f.sides[0].locks[0].stack[0].line, 40);
  EXPECT_EQ(f.threads[0].stack[0].file, "/src/a.cc");
  EXPECT_EQ(f.heap->stack[0].function, "worker(int*)");
}

TEST(Resolve, KeepsWhatTheWriterAlreadyResolved) {
  SiteTable table = SiteTable::parse(kTable);
  Finding f;
  Side side;
  side.stack = {Frame{"00000000000000aa", "inlined_name()", "", 0, 0},
                Frame{"00000000000000bb", "g()", "/other.cc", 5, 1}};
  f.sides = {side};
  resolve(f, table);
  EXPECT_EQ(f.sides[0].stack[0], (Frame{"00000000000000aa", "inlined_name()", "/src/a.cc", 12, 7}));
  EXPECT_EQ(f.sides[0].stack[1], (Frame{"00000000000000bb", "g()", "/other.cc", 5, 1}));
}

TEST(Resolve, WorksOnAListAndAddsUpTheCounts) {
  SiteTable table = SiteTable::parse(kTable);
  std::vector<Finding> findings = {testing::sample_race(), testing::sample_race()};
  findings[1].sides[0].stack[0] = bare("00000000000000aa");
  ResolveStats stats = resolve(findings, table);
  EXPECT_EQ(stats.filled, 1u);
  EXPECT_EQ(stats.unresolved, 0u);
  EXPECT_EQ(findings[1].sides[0].stack[0].function, "worker(int*)");
}

}  // namespace
}  // namespace snag::report
