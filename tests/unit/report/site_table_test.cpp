#include "report/site_table.h"

#include <gtest/gtest.h>

#include "report/elf_file.h"

namespace snag::report {
namespace {

// Two module tables, as the linker concatenates them.
const std::string kTwoModules =
    "M\t1\ta.o\n"
    "F\t0\t/src/a.cc\n"
    "N\t0\tworker(int*)\t_Z6workerPi\n"
    "N\t1\tmain\tmain\n"
    "S\t9a3b1c0d2e4f5061\t1\t12\t7\t0\t0\n"
    "S\t00000000000000ff\t6\t30\t3\t0\t1\n"
    "M\t1\tb.o\n"
    "F\t0\t/src/b.cc\n"  // index 0 again: indices are local to their module
    "N\t0\thelper()\t_Z6helperv\n"
    "S\t0123456789abcdef\t7\t5\t0\t0\t0\n";

TEST(SiteTable, ParsesConcatenatedModules) {
  SiteTable table = SiteTable::parse(kTwoModules);
  EXPECT_EQ(table.modules(), 2u);
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.malformed_lines(), 0u);

  const Site *write = table.find("9a3b1c0d2e4f5061");
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(*write, (Site{1, "worker(int*)", "_Z6workerPi", "/src/a.cc", 12, 7, 0, {}}));
  EXPECT_EQ(site_kind_name(write->kind), "write");

  const Site *api = table.find(0x0123456789abcdefull);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->file, "/src/b.cc");
  EXPECT_EQ(api->function, "helper()");
  EXPECT_EQ(site_kind_name(api->kind), "api");

  EXPECT_EQ(table.find("0123456789ABCDEF"), api);  // ids are case-insensitive
  EXPECT_EQ(table.find("ffffffffffffffff"), nullptr);
  EXPECT_EQ(table.find("not-an-id"), nullptr);
}

TEST(SiteTable, SkipsAndCountsMalformedLines) {
  std::string text =
      "S\t1111111111111111\t1\t1\t1\t0\t0\n"  // before any M line
      "M\t1\tm.o\n"
      "F\t0\t/src/m.cc\n"
      "N\t0\tf()\t_Z1fv\n"
      "S\t2222222222222222\t1\t10\t2\t0\t0\n"  // good
      "S\t3333\t1\t10\t2\t0\t0\n"              // short id
      "S\t4444444444444444\t1\tten\t2\t0\t0\n" // line is not a number
      "S\t5555555555555555\t1\t10\t2\t9\t0\n"  // undefined file index
      "S\t6666666666666666\t1\t10\t2\t0\n"     // missing field
      "X\twhat\n"                              // unknown record
      "F\tzero\t/src/x.cc\n"                   // bad index
      "M\tone\tm2.o\n"                         // bad version
      "\n"                                     // blank: ignored, not counted
      "S\t7777777777777777\t1\t-3\t2\t0\t0\n"; // negative line
  SiteTable table = SiteTable::parse(text);
  EXPECT_EQ(table.size(), 1u);
  EXPECT_NE(table.find("2222222222222222"), nullptr);
  EXPECT_EQ(table.malformed_lines(), 9u);
}

TEST(SiteTable, ToleratesNulPaddingAndAMissingFinalNewline) {
  using namespace std::string_literals;
  std::string text = "M\t1\ta.o\nF\t0\t/a.cc\nN\t0\tf\tf\n\0\0\0"s + "S\t00000000000000aa\t0\t1\t1\t0\t0";
  SiteTable table = SiteTable::parse(text);
  EXPECT_EQ(table.malformed_lines(), 0u);
  EXPECT_NE(table.find("00000000000000aa"), nullptr);
}

TEST(SiteTable, FirstDefinitionWinsAndMergeAddsTables) {
  SiteTable a = SiteTable::parse("M\t1\ta\nF\t0\t/a.cc\nN\t0\tf\tf\nS\t00000000000000aa\t0\t1\t1\t0\t0\n");
  SiteTable b = SiteTable::parse(
      "M\t1\tb\nF\t0\t/b.cc\nN\t0\tg\tg\nS\t00000000000000aa\t0\t9\t9\t0\t0\nS\t00000000000000bb\t0\t2\t2\t0\t0\n");
  a.merge(b);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(a.modules(), 2u);
  EXPECT_EQ(a.find("00000000000000aa")->file, "/a.cc");
  EXPECT_EQ(a.find("00000000000000bb")->file, "/b.cc");
}

TEST(SiteTable, KindNames) {
  EXPECT_EQ(site_kind_name(0), "read");
  EXPECT_EQ(site_kind_name(5), "function");
  EXPECT_EQ(site_kind_name(6), "call");
  EXPECT_EQ(site_kind_name(42), "kind 42");
}

TEST(SiteTable, ParsesSiteIds) {
  EXPECT_EQ(parse_site_id("9a3b1c0d2e4f5061"), 0x9a3b1c0d2e4f5061ull);
  EXPECT_FALSE(parse_site_id("9a3b1c0d2e4f506"));    // 15 digits
  EXPECT_FALSE(parse_site_id("9a3b1c0d2e4f50611"));  // 17 digits
  EXPECT_FALSE(parse_site_id("9a3b1c0d2e4f506g"));
  EXPECT_FALSE(parse_site_id("+a3b1c0d2e4f5061"));
}

TEST(SiteTable, ReadsTheSectionOfABinary) {
  SiteTable table = SiteTable::from_binary(SNAG_TEST_ELF_FIXTURE);
  EXPECT_EQ(table.modules(), 2u);
  EXPECT_EQ(table.size(), 5u);
  EXPECT_EQ(table.malformed_lines(), 0u);
  const Site *site = table.find("3333333333333333");
  ASSERT_NE(site, nullptr);
  EXPECT_EQ(site->function, "take_locks(std::mutex&, std::mutex&)");
  EXPECT_EQ(site->file, "/src/fake/lock.cc");
  EXPECT_EQ(site->line, 21);
}

TEST(SiteTable, ABinaryWithoutTheSectionGivesAnEmptyTable) {
  SiteTable table = SiteTable::from_binary("/bin/true");
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.modules(), 0u);
}

TEST(SiteTable, ANonElfFileIsAnError) {
  EXPECT_THROW(SiteTable::from_binary(SNAG_TEST_DATA_DIR "/hello.sh"), ElfError);
}

}  // namespace
}  // namespace snag::report

namespace snag::report {
namespace {

TEST(SiteTable, ReadsTheALinesOfApiSites) {
  SiteTable table = SiteTable::parse(
      "M\t1\ta.o\n"
      "F\t0\t/src/a.cc\n"
      "N\t0\tworker()\t_Z6workerv\n"
      "S\t00000000000000a1\t7\t12\t7\t0\t0\n"
      "A\t00000000000000a1\tw\tstd::vector<int>\tpush_back\n"
      "S\t00000000000000a2\t7\t12\t7\t0\t0\n"
      "A\t00000000000000a2\tr\tstd::vector<int>\toperator= (argument)\n"
      "S\t00000000000000a3\t1\t13\t2\t0\t0\n"
      "A\t00000000000000a1\tw\tstd::vector<int>\tpush_back\n"  // not after its S line
      "A\t00000000000000a3\tx\tstd::vector<int>\tpush_back\n");
  EXPECT_EQ(table.malformed_lines(), 2u);
  const Site *push = table.find(0xa1);
  ASSERT_NE(push, nullptr);
  ASSERT_TRUE(push->api);
  EXPECT_EQ(*push->api, (ApiCall{true, "std::vector<int>", "push_back"}));
  EXPECT_FALSE(table.find(0xa3)->api);
  EXPECT_EQ(table.api_calls_at("/src/a.cc", 12, 7).size(), 2u);
  EXPECT_TRUE(table.api_calls_at("/src/a.cc", 13, 2).empty());
}

}  // namespace
}  // namespace snag::report
