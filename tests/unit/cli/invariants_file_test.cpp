// `snag learn`'s side of the invariants file (docs/guard.md): reading
// through the runtime's parser, refusing corrupt and foreign files in one
// line, rendering sorted text that reads back the same, and merging with
// counts of what changed (a second identical run changes nothing).
#include <gtest/gtest.h>

#include <string>

#include "cli/diagnostics.h"
#include "cli/invariants_file.h"

namespace snag::cli {
namespace {

TEST(CliInvariantsFile, RoundTripsSorted) {
  Invariants inv = parse_invariants_text(
      "snag-invariants 1\nprogram worker\n"
      "bset 00000000000000b2 00000000000000a1\n"
      "bset 00000000000000a1 nil\n"
      "bset 00000000000000b2 nil\n",
      "f");
  EXPECT_EQ(inv.program, "worker");
  EXPECT_EQ(render_invariants(inv),
            "snag-invariants 1\nprogram worker\n"
            "bset 00000000000000a1 nil\n"
            "bset 00000000000000b2 nil\n"
            "bset 00000000000000b2 00000000000000a1\n");
  Invariants again = parse_invariants_text(render_invariants(inv), "f");
  EXPECT_EQ(again.bsets, inv.bsets);
}

TEST(CliInvariantsFile, CorruptOrForeignFileIsOneLineWithWhere) {
  try {
    parse_invariants_text("snag-invariants 1\nbset zz nil\n", "inv.txt");
    FAIL() << "accepted a malformed line";
  } catch (const UsageError &e) {
    std::string message = e.what();
    EXPECT_NE(message.find("inv.txt: line 2:"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_THROW(parse_invariants_text("snag-tsv-traps 1\n", "t"), UsageError);
  EXPECT_THROW(parse_invariants_text("", "t"), UsageError);
}

TEST(CliInvariantsFile, MergeCountsChangesAndConverges) {
  Invariants known;
  Invariants run;
  run.program = "worker";
  run.bsets[0xa1] = {0};
  run.bsets[0xb2] = {0, 0xa1};
  InvariantsChange first = merge_invariants(known, run);
  EXPECT_EQ(first.sites, 2);
  EXPECT_EQ(first.entries, 3);
  EXPECT_EQ(known.program, "worker");
  InvariantsChange second = merge_invariants(known, run);
  EXPECT_EQ(second.sites, 0);
  EXPECT_EQ(second.entries, 0);
  Invariants more;
  more.bsets[0xb2] = {0xc3};
  InvariantsChange third = merge_invariants(known, more);
  EXPECT_EQ(third.sites, 1);
  EXPECT_EQ(third.entries, 1);
}

TEST(CliInvariantsFile, FactsMergeRenderAndReadBack) {
  Invariants known, run;
  run.bsets[0xa1] = {0};
  run.locks[0xa1] = 0xf1;
  run.edges.insert({0xa1, 0xb2});
  run.counts[0xa1] = 5;
  merge_invariants(known, run);
  Invariants other;
  other.locks[0xa1] = 0xf2;  // the first lock known stays
  other.edges.insert({0xa1, 0xb2});
  other.counts[0xa1] = 7;   // counts add up over runs
  InvariantsChange change = merge_invariants(known, other);
  EXPECT_EQ(change.entries, 0);  // facts are not BSet entries
  EXPECT_EQ(known.locks.at(0xa1), 0xf1u);
  EXPECT_EQ(known.edges.size(), 1u);
  EXPECT_EQ(known.counts.at(0xa1), 12u);
  Invariants again = parse_invariants_text(render_invariants(known), "f");
  EXPECT_EQ(again.locks, known.locks);
  EXPECT_EQ(again.edges, known.edges);
  EXPECT_EQ(again.counts, known.counts);
  EXPECT_EQ(again.bsets, known.bsets);
}

TEST(CliInvariantsFile, SaveReplacesTheFileWhole) {
  std::string path = ::testing::TempDir() + "/saved.invariants";
  Invariants inv;
  inv.program = "worker";
  inv.bsets[0xa1] = {0, 0xb2};
  save_invariants_file(path, inv);
  Invariants back = load_invariants_file(path);
  EXPECT_EQ(back.bsets, inv.bsets);
  EXPECT_EQ(back.program, "worker");
  EXPECT_THROW(save_invariants_file("/nonexistent/dir/x.invariants", inv), UsageError);
}

TEST(CliInvariantsFile, MissingFileIsEmpty) {
  Invariants inv = load_invariants_file("/nonexistent/dir/inv.snag");
  EXPECT_TRUE(inv.bsets.empty());
}

}  // namespace
}  // namespace snag::cli
