// SNAG_DEBUG_ASSERT: with SNAG_DEBUG_ASSERTS (as here) a broken invariant
// prints one line naming it and aborts; the engines' checks fire on the
// states they guard against.
#include "core/debug_assert.h"

#include <gtest/gtest.h>

#include "engines/explore/strategy.h"

namespace snag {
namespace {

TEST(DebugAssert, AHoldingConditionPasses) {
  int evaluated = 0;
  SNAG_DEBUG_ASSERT(++evaluated == 1, "evaluated once");
  EXPECT_EQ(evaluated, 1);
}

TEST(DebugAssertDeathTest, AFailingConditionPrintsOneLineAndAborts) {
  EXPECT_DEATH(SNAG_DEBUG_ASSERT(1 + 1 == 3, "arithmetic holds"),
               "^snag: internal check failed: arithmetic holds \\(1 \\+ 1 == 3\\) at "
               ".*debug_assert_test.cpp:[0-9]+\n$");
}

TEST(DebugAssertDeathTest, APlanWithTooManyChangePointsIsCaught) {
  explore::Plan plan;
  plan.change_count = explore::kMaxChangePoints + 1;
  EXPECT_DEATH(explore::chooser().start(plan), "a plan has at most kMaxChangePoints change points");
}

TEST(DebugAssertDeathTest, AChangePointOnAMissingVariableIsCaught) {
  explore::Plan plan;
  plan.access_points = explore::AccessPoints::kVariables;
  plan.variable_count = 1;
  plan.change_count = 1;
  plan.change_variable[0] = 1;
  EXPECT_DEATH(explore::chooser().start(plan), "a change point names one of the plan's variables");
}

}  // namespace
}  // namespace snag
