// The guard engine's invariants file format (docs/guard.md): what the parser
// accepts, what it refuses, and that a refusal says why and where.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engines/guard/invariants_file.h"

namespace snag::guard {
namespace {

struct Collected final : InvariantsReader {
  std::vector<std::pair<snag_site_t, snag_site_t>> entries;
  void entry(snag_site_t site, snag_site_t predecessor) override {
    entries.emplace_back(site, predecessor);
  }
};

struct Result {
  bool ok;
  std::string error;
  int line;
};

Result parse(const std::string &text, Collected &out) {
  const char *error = nullptr;
  int line = -1;
  bool ok = parse_invariants(text.data(), text.size(), out, &error, &line);
  return {ok, error ? error : "", line};
}

TEST(InvariantsFile, ReadsEntriesCommentsAndNil) {
  Collected c;
  Result r = parse(
      "snag-invariants 1\n"
      "program worker\n"
      "# learned from 3 runs\n"
      "\n"
      "bset 9a3b1c0d2e4f5061 0c1d2e3f40516273\n"
      "bset 9a3b1c0d2e4f5061 nil\n",
      c);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(c.entries.size(), 2u);
  EXPECT_EQ(c.entries[0].first, 0x9a3b1c0d2e4f5061u);
  EXPECT_EQ(c.entries[0].second, 0x0c1d2e3f40516273u);
  EXPECT_EQ(c.entries[1].second, kNilPredecessor);
}

TEST(InvariantsFile, HeaderOnlyIsAnEmptySetAndFinalNewlineIsOptional) {
  Collected c;
  EXPECT_TRUE(parse("snag-invariants 1", c).ok);
  EXPECT_TRUE(parse("snag-invariants 1\nbset 0000000000000001 nil", c).ok);
  EXPECT_EQ(c.entries.size(), 1u);
}

TEST(InvariantsFile, RefusesForeignAndFutureFiles) {
  Collected c;
  EXPECT_FALSE(parse("", c).ok);
  EXPECT_FALSE(parse("snag-tsv-traps 1\n", c).ok);
  Result r = parse("snag-invariants 2\nbset 0000000000000001 nil\n", c);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.line, 1);
  EXPECT_NE(r.error.find("snag-invariants 1"), std::string::npos);
  EXPECT_TRUE(c.entries.empty());
}

TEST(InvariantsFile, RefusesMalformedLinesAndSaysWhere) {
  const char *bad[] = {
      "bset 9a3b1c0d2e4f5061",                     // no predecessor
      "bset 9a3b1c0d2e4f5061 ",                    // empty predecessor
      "bset 9A3B1C0D2E4F5061 nil",                 // uppercase hex
      "bset 0000000000000000 nil",                 // 0 is never a site
      "bset 9a3b1c0d2e4f5061 0000000000000000",    // nil is spelled nil
      "bset 9a3b1c0d2e4f5061 0c1d2e3f405162731",   // 17 digits
      "bset 9a3b1c0d2e4f506 0c1d2e3f40516273",     // 15 digits
      "bset 9a3b1c0d2e4f5061 nil extra",
      "pair 9a3b1c0d2e4f5061 0c1d2e3f40516273",
  };
  for (const char *line : bad) {
    Collected c;
    Result r = parse(std::string("snag-invariants 1\nbset 0000000000000001 nil\n") + line + "\n", c);
    EXPECT_FALSE(r.ok) << line;
    EXPECT_EQ(r.line, 3) << line;
    EXPECT_FALSE(r.error.empty()) << line;
    EXPECT_EQ(c.entries.size(), 1u) << line;  // what came before was delivered
  }
}

}  // namespace
}  // namespace snag::guard
