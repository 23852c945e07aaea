// Vector clocks: RaceTrack's B_t and the clocks synchronization carries.
// An epoch (thread t, clock c) happened before a clock B when c <= B(t).
#include "engines/race/vector_clock.h"

#include <gtest/gtest.h>

namespace snag::race {
namespace {

bool epoch_before(Tid t, Clock c, const VectorClock &b) { return c <= b.get(t); }

TEST(VectorClock, MissingEntriesAreZero) {
  VectorClock c;
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.get(0), 0u);
  EXPECT_EQ(c.get(1000), 0u);
  c.set(3, 7);
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c.get(3), 7u);
  EXPECT_EQ(c.get(2), 0u);
  EXPECT_EQ(c.get(4), 0u);
}

TEST(VectorClock, TickAdvancesOneEntry) {
  VectorClock c;
  c.tick(1);
  c.tick(1);
  c.tick(0);
  EXPECT_EQ(c.get(0), 1u);
  EXPECT_EQ(c.get(1), 2u);
}

TEST(VectorClock, GrowsPastItsFirstCapacityKeepingValues) {
  VectorClock c;
  for (Tid t = 0; t < 40; ++t) c.set(t, t * 10 + 1);
  EXPECT_EQ(c.size(), 40u);
  for (Tid t = 0; t < 40; ++t) EXPECT_EQ(c.get(t), t * 10 + 1) << t;
}

TEST(VectorClock, EntriesSkippedByAGrowthReadZeroInlineOrNot) {
  // The first entries live inside the clock, later ones on the heap: a
  // clock that jumps past both keeps the skipped entries at zero.
  VectorClock c;
  c.set(1, 7);
  c.set(5, 9);
  EXPECT_EQ(c.get(3), 0u);
  c.set(70, 4);
  for (Tid t = 0; t < 70; ++t) EXPECT_EQ(c.get(t), t == 1 ? 7u : t == 5 ? 9u : 0u) << t;
  VectorClock small;
  small.set(2, 3);
  c.assign(small);  // back to a short clock: the rest reads zero
  EXPECT_EQ(c.get(2), 3u);
  EXPECT_EQ(c.get(5), 0u);
  EXPECT_EQ(c.get(70), 0u);
}

TEST(VectorClock, MergeIsTheElementwiseMaximum) {
  VectorClock a, b;
  a.set(0, 5);
  a.set(1, 1);
  b.set(1, 4);
  b.set(2, 2);
  b.set(9, 3);
  a.merge(b);
  EXPECT_EQ(a.get(0), 5u);
  EXPECT_EQ(a.get(1), 4u);
  EXPECT_EQ(a.get(2), 2u);
  EXPECT_EQ(a.get(9), 3u);
  EXPECT_EQ(a.size(), 10u);
  // The source is unchanged.
  EXPECT_EQ(b.get(0), 0u);
  EXPECT_EQ(b.get(1), 4u);
}

TEST(VectorClock, AssignReplacesAndClearsTheRest) {
  VectorClock a, b;
  for (Tid t = 0; t < 6; ++t) a.set(t, 9);
  b.set(1, 2);
  a.assign(b);
  EXPECT_EQ(a.get(0), 0u);
  EXPECT_EQ(a.get(1), 2u);
  for (Tid t = 2; t < 6; ++t) EXPECT_EQ(a.get(t), 0u) << t;
  a.assign(VectorClock());
  EXPECT_EQ(a.get(1), 0u);
}

TEST(VectorClock, CoversIsThePartialOrder) {
  VectorClock empty, a, b;
  EXPECT_TRUE(empty.covers(empty));
  a.set(0, 3);
  a.set(1, 2);
  b.set(0, 2);
  b.set(1, 2);
  EXPECT_TRUE(a.covers(b));
  EXPECT_FALSE(b.covers(a));
  EXPECT_TRUE(a.covers(a));
  EXPECT_TRUE(a.covers(empty));
  EXPECT_FALSE(empty.covers(a));
  // Concurrent clocks: neither covers the other.
  b.set(2, 1);
  EXPECT_FALSE(a.covers(b));
  EXPECT_FALSE(b.covers(a));
  // Entries beyond this clock's size count as 0.
  VectorClock zeros;
  zeros.set(7, 0);
  EXPECT_TRUE(empty.covers(zeros));
}

TEST(VectorClock, EpochsOrderedThroughAMergeOnly) {
  // T1 at clock 5 hands off to T2 (T2 merges T1's clock), then ticks.
  VectorClock t1, t2;
  t1.set(1, 5);
  t2.set(2, 1);
  EXPECT_FALSE(epoch_before(1, 5, t2));
  t2.merge(t1);
  t1.tick(1);
  EXPECT_TRUE(epoch_before(1, 5, t2));
  EXPECT_FALSE(epoch_before(1, 6, t2));  // after the hand-off: concurrent
  EXPECT_TRUE(epoch_before(2, 1, t2));
}

}  // namespace
}  // namespace snag::race
