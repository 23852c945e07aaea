#include "report/finding.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sample_finding.h"

namespace snag::report {
namespace {

using nlohmann::json;
using testing::sample_race;

std::vector<Finding> read(const std::string &text, std::vector<std::string> &warnings) {
  std::istringstream in(text);
  return read_findings(in, warnings);
}

const char *kMinimal =
    R"({"snag":1,"engine":"race","kind":"data-race","message":"m","sides":[{"description":"d","stack":[]}]})";

TEST(FindingJson, RoundTripsEveryField) {
  Finding original = sample_race();
  original.count = 3;
  std::string error;
  std::vector<std::string> notes;
  std::optional<Finding> back = finding_from_json(to_json(original), error, notes);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(*back, original);
}

TEST(FindingJson, RoundTripsThroughJsonLines) {
  Finding a = sample_race();
  Finding b = sample_race();
  b.kind = "deadlock";
  b.heap.reset();
  b.global = GlobalVar{"counter", "0x601040", 8};
  std::string text = to_json(a).dump() + "\n" + to_json(b).dump() + "\n";
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(text, warnings);
  EXPECT_TRUE(warnings.empty());
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0], a);
  EXPECT_EQ(findings[1], b);
}

TEST(FindingJson, ReadsTheDocumentedExample) {
  // The example of docs/findings.md, with its elisions filled in.
  const char *line = R"json({"snag": 1, "engine": "race", "kind": "data-race", "title": "data race",
    "message": "Write of size 4 at 0x7b0400000010 by thread T2 races with previous read by thread T1",
    "severity": "error", "rank": 0.9, "seed": 12345,
    "details": { "accuracy": "field", "state": "Shared-Modify2" },
    "sides": [ { "role": "current", "description": "Write of size 4 at 0x7b0400000010 by thread T2",
      "thread": 2, "access": { "address": "0x7b0400000010", "size": 4, "kind": "write" },
      "stack": [ { "site": "9a3b1c0d2e4f5061", "function": "worker(int*)", "file": "/src/a.cc", "line": 12, "column": 7 },
                 { "site": "9a3b1c0d2e4f5062", "function": "main", "file": "/src/a.cc", "line": 30, "column": 3 } ],
      "locks": [ { "address": "0x7b0800000000", "name": "M1", "stack": [] } ] } ],
    "threads": [ { "id": 2, "name": "T2", "parent": 0, "stack": [] } ],
    "heap": { "address": "0x7b0400000000", "size": 40, "thread": 0, "stack": [] },
    "global": { "name": "counter", "address": "0x601040", "size": 4 }})json";
  std::string one_line = line;
  std::erase(one_line, '\n');
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(one_line + "\n", warnings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_TRUE(warnings.empty());
  const Finding &f = findings[0];
  EXPECT_EQ(f.kind, "data-race");
  EXPECT_DOUBLE_EQ(f.rank, 0.9);
  EXPECT_EQ(f.seed, 12345u);
  EXPECT_EQ(f.details["state"], "Shared-Modify2");
  ASSERT_EQ(f.sides.size(), 1u);
  EXPECT_EQ(f.sides[0].thread, 2);
  ASSERT_TRUE(f.sides[0].access);
  EXPECT_EQ(f.sides[0].access->kind, "write");
  EXPECT_EQ(f.sides[0].stack[1].function, "main");
  EXPECT_EQ(f.sides[0].locks[0].name, "M1");
  EXPECT_EQ(f.threads[0].parent, 0);
  EXPECT_EQ(f.heap->size, 40u);
  EXPECT_EQ(f.global->name, "counter");
}

TEST(FindingJson, OptionalFieldsHaveTheirDefaults) {
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(std::string(kMinimal) + "\n", warnings);
  ASSERT_EQ(findings.size(), 1u);
  const Finding &f = findings[0];
  EXPECT_EQ(f.severity, "error");
  EXPECT_DOUBLE_EQ(f.rank, 0.5);
  EXPECT_EQ(f.display_title(), "data race");
  EXPECT_EQ(f.count, 1u);
  EXPECT_FALSE(f.seed);
  EXPECT_TRUE(f.details.is_null());
  EXPECT_FALSE(f.heap);
  EXPECT_EQ(f.primary_frame(), nullptr);
}

TEST(FindingJson, SkipsBadLinesAndNamesThem) {
  std::string text = std::string(kMinimal) + "\n" +                                     // 1 ok
                     "this is not json\n" +                                               // 2
                     R"({"snag":1,"engine":"race","message":"m","sides":[]})" "\n" +      // 3 no kind
                     R"({"snag":1,"engine":"race","kind":"k","message":"m","sides":[{"description":"d"}]})" "\n" +  // 4
                     R"({"snag":1,"engine":"race","kind":"k","message":7,"sides":[]})" "\n" +  // 5
                     "   \n" +                                                               // 6 blank
                     "[1,2]\n" +                                                             // 7
                     kMinimal + "\n";                                                        // 8 ok
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(text, warnings);
  EXPECT_EQ(findings.size(), 2u);
  ASSERT_EQ(warnings.size(), 5u);
  EXPECT_EQ(warnings[0], "line 2: not valid JSON; skipped");
  EXPECT_EQ(warnings[1], "line 3: missing required field 'kind'; skipped");
  EXPECT_EQ(warnings[2], "line 4: missing required field 'sides[0].stack'; skipped");
  EXPECT_EQ(warnings[3], "line 5: field 'message' is not a string; skipped");
  EXPECT_EQ(warnings[4], "line 7: not a JSON object; skipped");
}

TEST(FindingJson, ExplainsACutOffLastLine) {
  std::string text = std::string(kMinimal) + "\n" + std::string(kMinimal).substr(0, 30);
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(text, warnings);
  EXPECT_EQ(findings.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("line 2: not valid JSON (cut off"), std::string::npos) << warnings[0];
}

TEST(FindingJson, AcceptsALastLineWithoutNewline) {
  std::vector<std::string> warnings;
  EXPECT_EQ(read(kMinimal, warnings).size(), 1u);
  EXPECT_TRUE(warnings.empty());
}

TEST(FindingJson, DropsAMalformedOptionalFieldButKeepsTheFinding) {
  json j = json::parse(kMinimal);
  j["seed"] = "abc";
  j["threads"] = json::array({{{"name", "no id"}}, {{"id", 3}}});
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(j.dump() + "\n", warnings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_FALSE(findings[0].seed);
  ASSERT_EQ(findings[0].threads.size(), 1u);
  EXPECT_EQ(findings[0].threads[0].id, 3);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "line 1: ignoring field 'seed' (is not a non-negative integer)");
  EXPECT_EQ(warnings[1], "line 1: ignoring 'threads[0]' (field 'threads[0].id' is missing)");
}

TEST(FindingJson, ACodeFrameKeepsItsModuleAndOffset) {
  // Frames of code snag did not compile (docs/findings.md): no site, a
  // module and the offset in it, written in hex.
  json j = json::parse(kMinimal);
  j["sides"][0]["stack"] = json::array({{{"module", "/lib/libc.so.6"}, {"offset", "0x3e55c"}, {"function", "exit"}},
                                        {{"module", "/bin/a"}, {"offset", "12345"}}});
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(j.dump() + "\n", warnings);
  ASSERT_EQ(findings.size(), 1u);
  const Stack &stack = findings[0].sides[0].stack;
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[0].module, "/lib/libc.so.6");
  EXPECT_EQ(stack[0].offset, 0x3e55cu);
  EXPECT_EQ(stack[0].display(), "exit (/lib/libc.so.6+0x3e55c)");
  EXPECT_EQ(to_json(findings[0])["sides"][0]["stack"][0]["offset"], "0x3e55c");
  EXPECT_EQ(stack[1].offset, 0u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "line 1: ignoring field 'sides[0].stack[1].offset' (is not a hex number (\"0x...\"))");
}

TEST(FindingJson, NullMeansAbsent) {
  json j = json::parse(kMinimal);
  j["seed"] = nullptr;
  j["title"] = nullptr;
  std::vector<std::string> warnings;
  std::vector<Finding> findings = read(j.dump() + "\n", warnings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(findings[0].seed);
}

TEST(FindingJson, RejectsOtherFormatVersions) {
  json j = json::parse(kMinimal);
  j["snag"] = 2;
  std::vector<std::string> warnings;
  EXPECT_TRUE(read(j.dump() + "\n", warnings).empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("this snag reads version 1"), std::string::npos) << warnings[0];
}

TEST(FindingJson, NeverThrowsOnGarbage) {
  std::string garbage;
  garbage += std::string(100000, '[') + "\n";
  garbage += "\x01\x02\xff\xfe binary\n";
  garbage += R"({"snag":1e400,"engine":[],"kind":{},"message":null,"sides":"x"})" "\n";
  garbage += R"({"snag":1,"engine":"e","kind":"k","message":"m","sides":[{"description":"d","stack":[1,2]}]})" "\n";
  garbage += R"({"snag":1,"engine":"e","kind":"k","message":"m","sides":[],"count":-5,"rank":"high"})" "\n";
  std::vector<std::string> warnings;
  std::vector<Finding> findings;
  EXPECT_NO_THROW(findings = read(garbage, warnings));
  ASSERT_EQ(findings.size(), 1u);  // the last line, without its bad count and rank
  EXPECT_EQ(findings[0].count, 1u);
  EXPECT_DOUBLE_EQ(findings[0].rank, 0.5);
  EXPECT_GE(warnings.size(), 4u);
}

TEST(Frame, DisplaysWhatIsKnown) {
  EXPECT_EQ(testing::frame("1", "f()", "/a.cc", 3, 4).display(), "f() /a.cc:3:4");
  EXPECT_EQ(testing::frame("1", "f()", "/a.cc", 3, 0).display(), "f() /a.cc:3");
  EXPECT_EQ(testing::frame("1", "f()", "", 0, 0).display(), "f()");
  EXPECT_EQ(testing::frame("1", "", "/a.cc", 3, 4).display(), "/a.cc:3:4");
  EXPECT_EQ(testing::frame("9a3b1c0d2e4f5061", "", "", 0, 0).display(), "<unknown site 9a3b1c0d2e4f5061>");
  EXPECT_EQ(Frame{}.display(), "<unknown frame>");
}

TEST(FindingPrimaryFrame, SkipsCodeInlinedFromToolchainHeaders) {
  Finding f;
  Side side;
  side.stack = {
      {"01", "__gthread_mutex_lock", "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/x86_64-linux-gnu/bits/gthr-default.h", 749, 12},
      {"02", "std::mutex::lock", "/usr/include/c++/12/bits/std_mutex.h", 100, 17},
      {"03", "transfer", "/src/bank.cc", 14, 31},
      {"04", "main", "/src/bank.cc", 30, 3}};
  f.sides.push_back(side);
  ASSERT_NE(f.primary_frame(), nullptr);
  EXPECT_EQ(f.primary_frame()->location(), "/src/bank.cc:14:31");

  // Only toolchain frames: the innermost one still names the place.
  f.sides[0].stack.resize(2);
  EXPECT_EQ(f.primary_frame()->function, "__gthread_mutex_lock");
}

}  // namespace
}  // namespace snag::report
