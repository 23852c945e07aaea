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

// A variable of at most 1 KiB keeps its histories packed, 16 bytes each
// (shadow.h): every field a report or the state machine reads comes back,
// at the limits of its bits, and the write bit is the slot's.
TEST(PackedHistories, AHistoryRoundTripsThroughItsPackedForm) {
  History h{};
  h.stack = 0xdeadbeef;
  h.lockset = (1u << kLocksetIdBits) - 1;  // the largest id the table gives
  h.thread = (1u << 20) - 1;
  h.clock = 0xfffffffe;
  h.offset = 1023;
  h.size = 1;
  h.write = 1;
  History back = unpack_history(pack_history(h), /*write=*/true);
  EXPECT_EQ(back.stack, h.stack);
  EXPECT_EQ(back.lockset, h.lockset);
  EXPECT_EQ(back.thread, h.thread);
  EXPECT_EQ(back.clock, h.clock);
  EXPECT_EQ(back.offset, 1023u);
  EXPECT_EQ(back.size, 1u);
  EXPECT_EQ(back.write, 1u);
  h.thread = 3;
  h.offset = 0;
  h.size = 1024;  // a whole 1 KiB block
  h.write = 0;
  back = unpack_history(pack_history(h), /*write=*/false);
  EXPECT_EQ(back.thread, 3u);
  EXPECT_EQ(back.offset, 0u);
  EXPECT_EQ(back.size, 1024u);
  EXPECT_EQ(back.write, 0u);
  EXPECT_EQ(back.lockset, h.lockset);
}

// Offset and size keep their high bits beside the lockset id and their low
// bits beside the thread: each field comes back whatever the others hold.
TEST(PackedHistories, OffsetSizeAndLocksetDoNotMix) {
  for (uint32_t offset : {0u, 1u, 63u, 64u, 65u, 700u, 1023u})
    for (uint32_t size : {1u, 8u, 64u, 65u, 128u, 513u, 1024u - offset})
      for (uint32_t lockset : {0u, 1u, 0x00abcdefu, (1u << kLocksetIdBits) - 1}) {
        History h{};
        h.stack = 7;
        h.lockset = lockset;
        h.thread = 0x5a5a5;
        h.clock = 11;
        h.offset = offset;
        h.size = static_cast<uint16_t>(size);
        History back = unpack_history(pack_history(h), /*write=*/false);
        EXPECT_EQ(back.offset, offset);
        EXPECT_EQ(back.size, size) << offset;
        EXPECT_EQ(back.lockset, lockset);
        EXPECT_EQ(back.thread, 0x5a5a5u);
      }
}

TEST(PackedHistories, EmptySlotsUnpackAsNothingRecorded) {
  PackedHistories packed{};
  packed.write = pack_history(read_by(4, 9));
  Histories hs;
  unpack_histories(packed, &hs);
  EXPECT_EQ(hs.read.stack, 0u);
  EXPECT_EQ(hs.read.size, 0u);
  EXPECT_EQ(hs.other_read.stack, 0u);
  EXPECT_EQ(hs.write.stack, 104u);
  EXPECT_EQ(hs.write.thread, 4u);
  EXPECT_EQ(hs.write.write, 1u) << "the write slot's access is a write";
}

TEST(PackedHistories, ReadsGoToTheSameSlotsAsInWideHistories) {
  PackedHistories hs{};
  history_slot(hs, false, 1) = pack_history(read_by(1, 5));
  EXPECT_EQ(&history_slot(hs, false, 1), &hs.read) << "its own read again";
  EXPECT_EQ(&history_slot(hs, false, 2), &hs.other_read) << "another thread's read";
  EXPECT_EQ(&history_slot(hs, true, 2), &hs.write);
  // Thread ids are compared in the 20 bits a packed history keeps.
  EXPECT_EQ(&history_slot(hs, false, 1 + (1u << 20)), &hs.read);
}

}  // namespace
}  // namespace snag::race
