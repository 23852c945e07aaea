// Races inside calls of thread-unsafe classes become one finding at the
// program's two call lines, naming the object and both operations.
#include "report/library_races.h"

#include <gtest/gtest.h>

#include "report/dedup.h"

namespace snag::report {
namespace {

const char *kHeader = "/usr/include/c++/12/bits/stl_vector.h";

SiteTable table() {
  return SiteTable::parse(
      "M\t1\ta.o\n"
      "F\t0\t/src/a.cc\n"
      "N\t0\tworker()\t_Z6workerv\n"
      "S\t00000000000000a1\t7\t6\t7\t0\t0\n"
      "A\t00000000000000a1\tw\tstd::vector<int>\tpush_back\n"
      "S\t00000000000000a2\t7\t9\t7\t0\t0\n"
      "A\t00000000000000a2\tr\tstd::vector<int>\tsize\n");
}

Side side(int64_t thread, int64_t header_line, const char *callee, int64_t user_line) {
  Side s;
  s.thread = thread;
  s.stack.push_back({"", callee, kHeader, header_line, 5});
  s.stack.push_back({"", "worker()", "/src/a.cc", user_line, 7});
  return s;
}

Finding race(int64_t first_header_line, int64_t second_header_line) {
  Finding f;
  f.engine = "race";
  f.kind = "data-race";
  f.message = "raw";
  f.sides.push_back(side(1, first_header_line, "std::vector<int>::push_back(int const&)", 6));
  f.sides.push_back(side(2, second_header_line, "std::vector<int>::size() const", 9));
  return f;
}

TEST(LibraryRaces, NameTheCallsAndFoldIntoOneFinding) {
  std::vector<Finding> findings = {race(1278, 919), race(1283, 919)};
  describe_library_races(findings, table());
  for (const Finding &f : findings) {
    EXPECT_EQ(f.message,
              "Data race inside std::vector<int>: push_back (write) by thread T1 at /src/a.cc:6:7 "
              "and size (read) by thread T2 at /src/a.cc:9:7");
    EXPECT_EQ(f.details["object"], "std::vector<int>");
    EXPECT_EQ(f.details["operations"], "push_back (write) vs size (read)");
  }
  findings = dedup(std::move(findings));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings.front().count, 2u);
}

TEST(LibraryRaces, LeaveRacesInTheProgramsOwnCodeAlone) {
  Finding f = race(1278, 919);
  f.sides[1].stack.erase(f.sides[1].stack.begin());  // the access is at the user's line
  std::vector<Finding> findings = {f};
  describe_library_races(findings, table());
  EXPECT_EQ(findings.front().message, "raw");
}

}  // namespace
}  // namespace snag::report
