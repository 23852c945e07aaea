// Where the race engine remembers accesses (shadow.h, history_slot): one
// write, and reads by two different threads, so that a write finds an
// unordered read by another thread even when the writer read the variable
// first (the double-checked-locking order of issue 14).
#include "engines/race/shadow.h"

#include <gtest/gtest.h>

namespace snag::race {
namespace {

History read_by(Tid thread, uint32_t clock) {
  History h{};
  h.stack = 100 + thread;
  h.thread = thread;
  h.clock = clock;
  return h;
}

TEST(Histories, AWriteGoesToTheWriteSlot) {
  Histories hs{};
  EXPECT_EQ(&history_slot(hs, true, 1), &hs.write);
  hs.read = read_by(2, 1);
  EXPECT_EQ(&history_slot(hs, true, 1), &hs.write);
}

TEST(Histories, TheFirstReadGoesToTheReadSlot) {
  Histories hs{};
  EXPECT_EQ(&history_slot(hs, false, 3), &hs.read);
}

TEST(Histories, AThreadsNextReadReplacesItsOwn) {
  Histories hs{};
  hs.read = read_by(3, 1);
  EXPECT_EQ(&history_slot(hs, false, 3), &hs.read);
  hs.other_read = read_by(4, 1);
  EXPECT_EQ(&history_slot(hs, false, 4), &hs.other_read);
}

TEST(Histories, AnotherThreadsReadKeepsTheFirstThreadsRead) {
  // Thread 1 read (the unlocked check), then thread 2 read: thread 1's later
  // write must still find thread 2's read.
  Histories hs{};
  history_slot(hs, false, 1) = read_by(1, 5);
  history_slot(hs, false, 2) = read_by(2, 7);
  history_slot(hs, false, 1) = read_by(1, 6);  // thread 1 reads again under the lock
  EXPECT_EQ(hs.read.thread, 1u);
  EXPECT_EQ(hs.read.clock, 6u);
  EXPECT_EQ(hs.other_read.thread, 2u);
  EXPECT_EQ(hs.other_read.clock, 7u);
}

TEST(Histories, AThirdThreadsReadReplacesTheOtherRead) {
  Histories hs{};
  history_slot(hs, false, 1) = read_by(1, 1);
  history_slot(hs, false, 2) = read_by(2, 1);
  history_slot(hs, false, 3) = read_by(3, 1);
  EXPECT_EQ(hs.read.thread, 1u);
  EXPECT_EQ(hs.other_read.thread, 3u);  // the latest read by a thread other than the first
}

}  // namespace
}  // namespace snag::race
