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
  std::vector<std::pair<snag_site_t, snag_site_t>> locks, edges;
  std::vector<std::pair<snag_site_t, uint64_t>> counts;
  void entry(snag_site_t site, snag_site_t predecessor) override {
    entries.emplace_back(site, predecessor);
  }
  void lock(snag_site_t site, snag_site_t lock_site) override { locks.emplace_back(site, lock_site); }
  void edge(snag_site_t a, snag_site_t b) override { edges.emplace_back(a, b); }
  void count(snag_site_t site, uint64_t n) override { counts.emplace_back(site, n); }
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

TEST(InvariantsFile, ReadsLockEdgeAndCountFacts) {
  Collected c;
  Result r = parse(
      "snag-invariants 1\n"
      "lock 9a3b1c0d2e4f5061 0c1d2e3f40516273\n"
      "edge 0000000000000001 0000000000000002\n"
      "count 9a3b1c0d2e4f5061 1234567890123\n",
      c);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(c.locks.size(), 1u);
  EXPECT_EQ(c.locks[0].second, 0x0c1d2e3f40516273u);
  ASSERT_EQ(c.edges.size(), 1u);
  EXPECT_EQ(c.edges[0].second, 2u);
  ASSERT_EQ(c.counts.size(), 1u);
  EXPECT_EQ(c.counts[0].second, 1234567890123u);
  // Each fact refuses a malformed line with its own reason and the line.
  for (const char *bad : {"lock 9a3b1c0d2e4f5061 nil", "edge 0000000000000001",
                          "count 9a3b1c0d2e4f5061 12x", "count 9a3b1c0d2e4f5061 ",
                          "count 9a3b1c0d2e4f5061 12345678901234567890"}) {
    Collected d;
    Result refused = parse(std::string("snag-invariants 1\n") + bad + "\n", d);
    EXPECT_FALSE(refused.ok) << bad;
    EXPECT_EQ(refused.line, 2) << bad;
    EXPECT_NE(refused.error.find("malformed"), std::string::npos) << bad;
  }
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
