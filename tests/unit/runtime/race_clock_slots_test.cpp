// Vector-clock slots (engines/race/clock_slots.h): a joined thread's slot is
// reused only by a thread created after its last epoch, and starts above it.
#include "engines/race/clock_slots.h"

#include <gtest/gtest.h>

namespace snag::race {
namespace {

struct FreshSlots {
  FreshSlots() { reset_clock_slots(); }
  ~FreshSlots() { reset_clock_slots(); }
};

TEST(ClockSlots, NewThreadsTakeNewSlotsWhileNoneIsFree) {
  FreshSlots fresh;
  VectorClock creator;
  EXPECT_EQ(take_clock_slot(nullptr, 0).slot, 0u);
  ClockSlot a = take_clock_slot(&creator, 1);
  ClockSlot b = take_clock_slot(&creator, 2);
  EXPECT_EQ(a.slot, 1u);
  EXPECT_EQ(b.slot, 2u);
  EXPECT_EQ(a.start, 1u);
}

TEST(ClockSlots, AThreadCreatedAfterAJoinTakesTheJoinedSlotAboveItsLastClock) {
  FreshSlots fresh;
  VectorClock joiner;
  take_clock_slot(nullptr, 0);
  ClockSlot worker = take_clock_slot(&joiner, 1);
  give_back_clock_slot(worker.slot, 9);
  joiner.set(worker.slot, 9);  // the join merged the worker's clock
  ClockSlot next = take_clock_slot(&joiner, 2);
  EXPECT_EQ(next.slot, worker.slot);
  EXPECT_EQ(next.start, 10u);
  EXPECT_EQ(thread_of_slot(worker.slot, 9), 1u);
  EXPECT_EQ(thread_of_slot(worker.slot, 10), 2u);
}

TEST(ClockSlots, ACreatorThatHasNotSeenTheLastEpochGetsAFreshSlot) {
  FreshSlots fresh;
  VectorClock other;
  take_clock_slot(nullptr, 0);
  ClockSlot worker = take_clock_slot(&other, 1);
  give_back_clock_slot(worker.slot, 9);
  other.set(worker.slot, 8);  // ordered after an earlier epoch only
  ClockSlot next = take_clock_slot(&other, 2);
  EXPECT_NE(next.slot, worker.slot);
  EXPECT_EQ(next.start, 1u);
  other.set(worker.slot, 9);
  EXPECT_EQ(take_clock_slot(&other, 3).slot, worker.slot);  // still free for one that has
}

}  // namespace
}  // namespace snag::race
