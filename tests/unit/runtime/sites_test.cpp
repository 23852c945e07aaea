#include <gtest/gtest.h>

#include <string>

#include "core/sites.h"

namespace snag {
namespace {

std::string text(TableString s) { return std::string(s.data, s.size); }

// Tables must outlive the registry (in a program they live in the binary).
const std::string kTable =
    "M\t1\tworker.cc\n"
    "F\t0\t/src/worker.cc\n"
    "F\t1\t/usr/include/c++/12/bits/stl_vector.h\n"
    "N\t0\tworker(int*)\t_Z6workerPi\n"
    "N\t1\tmain\tmain\n"
    "S\t00000000000000aa\t1\t12\t7\t0\t0\n"
    "S\t0000000000000011\t0\t30\t3\t0\t1\n"
    "garbage line\n"
    "S\tnot-enough-fields\n"
    "S\tfedcba9876543210\t6\t1234\t9\t1\t1\n";

TEST(Sites, ResolvesRegisteredSites) {
  register_site_table(kTable.data(), kTable.size());
  SiteInfo info;
  ASSERT_TRUE(find_site(0xaa, &info));
  EXPECT_EQ(info.kind, 1u);
  EXPECT_EQ(info.line, 12u);
  EXPECT_EQ(info.column, 7u);
  EXPECT_EQ(text(info.file), "/src/worker.cc");
  EXPECT_EQ(text(info.function), "worker(int*)");
  ASSERT_TRUE(find_site(0xfedcba9876543210ull, &info));
  EXPECT_EQ(text(info.file), "/usr/include/c++/12/bits/stl_vector.h");
  EXPECT_EQ(info.line, 1234u);
  EXPECT_EQ(text(info.function), "main");
  EXPECT_FALSE(find_site(0x12345, &info));
  EXPECT_FALSE(find_site(0, &info));
}

TEST(Sites, SeveralModules) {
  static const std::string second =
      "M\t1\tother.c\nF\t0\tother.c\nN\t0\tf\tf\nS\t0000000000000bbb\t0\t5\t1\t0\t0\n";
  register_site_table(kTable.data(), kTable.size());
  register_site_table(second.data(), second.size());
  SiteInfo info;
  ASSERT_TRUE(find_site(0xbbb, &info));
  EXPECT_EQ(text(info.file), "other.c");
  ASSERT_TRUE(find_site(0xaa, &info));
  EXPECT_EQ(text(info.file), "/src/worker.cc");
  EXPECT_GE(site_count(), 4u);
}

}  // namespace
}  // namespace snag
