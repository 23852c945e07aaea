#include "interp/vector_clock.h"

#include <gtest/gtest.h>

namespace snag::interp {
namespace {

TEST(VectorClock, MissingEntriesAreZero) {
  VectorClock c;
  EXPECT_EQ(c.Get(7), 0u);
  c.Tick(3);
  EXPECT_EQ(c.Get(3), 1u);
  EXPECT_EQ(c.Get(2), 0u);
}

TEST(VectorClock, JoinIsPointwiseMax) {
  VectorClock a, b;
  a.Set(0, 5);
  a.Set(1, 1);
  b.Set(1, 3);
  b.Set(4, 2);
  a.Join(b);
  EXPECT_EQ(a.Get(0), 5u);
  EXPECT_EQ(a.Get(1), 3u);
  EXPECT_EQ(a.Get(4), 2u);
  EXPECT_TRUE(b.LessOrEqual(a));
  EXPECT_FALSE(a.LessOrEqual(b));
}

}  // namespace
}  // namespace snag::interp
