// The failure bound the -j workers of one exploration share (failure_bound.h):
// a failure found by one worker stops the others before any later schedule
// index, never before an earlier one, and the bound only goes down.
#include "engines/explore/failure_bound.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "core/options.h"

namespace snag::explore {
namespace {

// A bound file as the CLI makes it: all ones, no failure yet.
std::string new_bound_file(const char *name) {
  std::string path = testing::TempDir() + "/snag_failure_bound_" + name + "_" + std::to_string(getpid());
  const uint64_t none = ~uint64_t(0);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(&none), sizeof none);
  return path;
}

void open_bound(const std::string &path) {
  options().parse(("failure_bound=" + path).c_str());
  failure_bound_open();
}

TEST(FailureBound, NothingIsAfterTheBoundBeforeAFailure) {
  open_bound(new_bound_file("empty"));
  EXPECT_FALSE(failure_bound_set());
  EXPECT_FALSE(after_failure_bound(0));
  EXPECT_FALSE(after_failure_bound(~uint64_t(0) - 1));
}

TEST(FailureBound, AFailureInAnotherProcessStopsOnlyLaterIndices) {
  open_bound(new_bound_file("shared"));
  pid_t other_worker = fork();
  ASSERT_GE(other_worker, 0);
  if (other_worker == 0) {
    lower_failure_bound(10);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(other_worker, &status, 0), other_worker);
  EXPECT_TRUE(failure_bound_set());
  EXPECT_FALSE(after_failure_bound(9));   // an earlier index still runs: it may fail first
  EXPECT_FALSE(after_failure_bound(10));  // the failing index itself
  EXPECT_TRUE(after_failure_bound(11));
}

// A bound file with the start barrier, as the CLI makes it for `workers`.
std::string new_barrier_file(const char *name, uint64_t workers) {
  std::string path = testing::TempDir() + "/snag_failure_bound_" + name + "_" + std::to_string(getpid());
  const uint64_t words[3] = {~uint64_t(0), workers, 0};
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(words), sizeof words);
  return path;
}

uint64_t ready_in(const std::string &path) {
  uint64_t words[3] = {};
  std::ifstream(path, std::ios::binary).read(reinterpret_cast<char *>(words), sizeof words);
  return words[2];
}

// No schedule starts before every worker reached its fork point: the first
// worker waits for the second (which comes only after the first counted
// itself ready), and both go on once both are.
TEST(FailureBound, WorkersStartTogether) {
  const std::string path = new_barrier_file("barrier", 2);
  open_bound(path);
  pid_t first = fork();
  ASSERT_GE(first, 0);
  if (first == 0) {
    wait_for_all_workers();
    _exit(ready_in(path) == 2 ? 0 : 1);
  }
  while (ready_in(path) == 0) usleep(100);  // the first worker is waiting now
  wait_for_all_workers();                   // the second arrives
  EXPECT_EQ(ready_in(path), 2u);
  int status = 0;
  ASSERT_EQ(waitpid(first, &status, 0), first);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the first worker went on alone";
}

TEST(FailureBound, AnEightByteFileHasNoBarrier) {
  open_bound(new_bound_file("no_barrier"));
  wait_for_all_workers();  // returns at once: nothing to wait for
  EXPECT_FALSE(failure_bound_set());
}

TEST(FailureBound, OnlyALowerFailureMovesTheBound) {
  open_bound(new_bound_file("lower"));
  lower_failure_bound(10);
  lower_failure_bound(12);  // a later failure: the bound stays at 10
  EXPECT_FALSE(after_failure_bound(10));
  EXPECT_TRUE(after_failure_bound(11));
  lower_failure_bound(4);
  EXPECT_TRUE(after_failure_bound(5));
  EXPECT_FALSE(after_failure_bound(4));
}

}  // namespace
}  // namespace snag::explore
