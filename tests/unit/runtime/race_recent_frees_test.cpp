// The recent-frees table (engines/race/recent_frees.h): a report of a race
// with a free finds the free by its thread, epoch and an address inside the
// block, shown as a write clipped to the racing variable, at the free's
// site under its two innermost callers.
#include <gtest/gtest.h>

#include "engines/race/access_stacks.h"
#include "engines/race/recent_frees.h"

namespace snag::race {
namespace {

// A thread three calls deep: outer (site 301) -> middle (302) -> inner (303).
struct ThreeFrames {
  ShadowFrame frames[3] = {{301, 0x7000}, {302, 0x6000}, {303, 0x5000}};
  ShadowStack shadow;
  ThreeFrames() {
    shadow.frames = frames;
    shadow.depth = 3;
  }
};

void remember(uintptr_t start, uintptr_t size, uint32_t slot, uint32_t clock, snag_site_t site) {
  ThreeFrames t;
  remember_free(start, size, slot, clock, site, t.shadow);
}

TEST(RecentFrees, AFreeIsRecalledAsAWriteOfTheVariableByItsThreadAndEpoch) {
  remember(0x10000, 40, 3, 17, 99);
  History h;
  ASSERT_TRUE(recall_free(0x10020, 3, 17, 0x10020, 8, &h));
  EXPECT_EQ(h.thread, 3u);
  EXPECT_EQ(h.clock, 17u);
  EXPECT_EQ(h.write, 1);
  EXPECT_EQ(h.offset, 0u);
  EXPECT_EQ(h.size, 8u) << "the block's 40 bytes clipped to the granule";
  StackTrace stack;
  access_stack_trace(h.stack, &stack);
  ASSERT_EQ(stack.depth, 3u);
  EXPECT_EQ(stack.frames[0], 99u) << "the free's site";
  EXPECT_EQ(stack.frames[1], 303u) << "its innermost caller";
  EXPECT_EQ(stack.frames[2], 302u);
}

TEST(RecentFrees, ABlockEndingInsideTheVariableIsClippedToItsEnd) {
  remember(0x20004, 12, 1, 5, 7);  // [0x20004, 0x20010)
  History h;
  ASSERT_TRUE(recall_free(0x20004, 1, 5, 0x20000, 8, &h));
  EXPECT_EQ(h.offset, 4u);
  EXPECT_EQ(h.size, 4u);
}

TEST(RecentFrees, AnotherEpochThreadOrAddressIsNotThatFree) {
  remember(0x30000, 16, 2, 9, 11);
  History h;
  EXPECT_FALSE(recall_free(0x30000, 2, 10, 0x30000, 8, &h)) << "a later epoch of the same thread";
  EXPECT_FALSE(recall_free(0x30000, 4, 9, 0x30000, 8, &h)) << "another thread";
  EXPECT_FALSE(recall_free(0x30010, 2, 9, 0x30010, 8, &h)) << "past the block's end";
  EXPECT_TRUE(recall_free(0x30008, 2, 9, 0x30008, 8, &h));
}

TEST(RecentFrees, ALaterFreeOfTheSameStartTakesTheEntry) {
  remember(0x40000, 16, 2, 9, 11);
  remember(0x40000, 16, 6, 1, 12);
  History h;
  EXPECT_FALSE(recall_free(0x40000, 2, 9, 0x40000, 8, &h)) << "overwritten: its race keeps one side";
  ASSERT_TRUE(recall_free(0x40000, 6, 1, 0x40000, 8, &h));
  snag_site_t site;
  StackId context;
  access_stack_of(h.stack, &site, &context);
  EXPECT_EQ(site, 12u);
}

TEST(RecentFrees, AFreeOutsideAnyFunctionKeepsItsSiteAlone) {
  ShadowStack none;
  remember_free(0x50000, 8, 1, 1, 44, none);
  History h;
  ASSERT_TRUE(recall_free(0x50000, 1, 1, 0x50000, 8, &h));
  StackTrace stack;
  access_stack_trace(h.stack, &stack);
  ASSERT_EQ(stack.depth, 1u);
  EXPECT_EQ(stack.frames[0], 44u);
}

}  // namespace
}  // namespace snag::race
