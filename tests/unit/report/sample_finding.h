// A fully populated finding shared by the writer tests, built in code so each
// test can change one field and see exactly what moves.
#pragma once

#include "report/finding.h"

namespace snag::report::testing {

inline Frame frame(std::string site, std::string function, std::string file, int64_t line,
                   int64_t column) {
  return Frame{std::move(site), std::move(function), std::move(file), line, column};
}

inline Finding sample_race() {
  Finding f;
  f.engine = "race";
  f.kind = "data-race";
  f.title = "data race";
  f.message = "Write of size 4 at 0x7b0400000010 by thread T2 races with previous read by thread T1";
  f.rank = 0.9;
  f.seed = 12345;
  f.pid = 1234;
  f.details = {{"accuracy", "field"}, {"state", "Shared-Modify2"}};

  Side current;
  current.role = "current";
  current.description = "Write of size 4 at 0x7b0400000010 by thread T2";
  current.thread = 2;
  current.access = Access{"0x7b0400000010", 4, "write"};
  current.stack = {frame("1111111111111111", "worker(int*)", "/src/a.cc", 12, 7),
                   frame("2222222222222222", "main", "/src/a.cc", 30, 3)};
  current.locks = {Lock{"0x7b0800000000", "", {frame("3333333333333333", "lock_it()", "/src/a.cc", 8, 5)}}};

  Side previous;
  previous.role = "previous";
  previous.description = "Previous read of size 4 at 0x7b0400000010 by thread T1";
  previous.thread = 1;
  previous.access = Access{"0x7b0400000010", 4, "read"};
  previous.stack = {frame("4444444444444444", "reader()", "/src/a.cc", 20, 9)};

  f.sides = {current, previous};
  f.threads = {ThreadInfo{2, "T2", 0, {frame("5555555555555555", "main", "/src/a.cc", 28, 5)}},
               ThreadInfo{1, "T1", 2, {frame("6666666666666666", "spawn()", "/src/a.cc", 40, 1)}},
               ThreadInfo{0, "T0", std::nullopt, {}}};
  f.heap = HeapBlock{"0x7b0400000000", 40, 0, {frame("7777777777777777", "main", "/src/a.cc", 25, 14)}};
  return f;
}

}  // namespace snag::report::testing
