// Interned (site, calling context) pairs (access_stacks.h): what a history
// entry keeps of where its access was made.
#include "engines/race/access_stacks.h"

#include <gtest/gtest.h>

namespace snag::race {
namespace {

TEST(AccessStacks, APairGetsOneIdAndGivesBothHalvesBack) {
  StackTrace context;
  context.depth = 2;
  context.frames[0] = 0x5001;
  context.frames[1] = 0x5002;
  const StackId context_id = depot_put(context);
  const uint32_t id = intern_access_stack(0x4001, context_id);
  EXPECT_NE(id, 0u) << "0 means nothing recorded";
  EXPECT_EQ(intern_access_stack(0x4001, context_id), id);
  EXPECT_NE(intern_access_stack(0x4002, context_id), id) << "another site";
  EXPECT_NE(intern_access_stack(0x4001, 0), id) << "another context";
  snag_site_t site;
  StackId back;
  access_stack_of(id, &site, &back);
  EXPECT_EQ(site, 0x4001u);
  EXPECT_EQ(back, context_id);
  StackTrace trace;
  access_stack_trace(id, &trace);  // the site on top of its context, as a report shows it
  ASSERT_EQ(trace.depth, 3u);
  EXPECT_EQ(trace.frames[0], 0x4001u);
  EXPECT_EQ(trace.frames[1], 0x5001u);
  EXPECT_EQ(trace.frames[2], 0x5002u);
}

TEST(AccessStacks, IdsStayValidAsTheTableGrows) {
  uint32_t first = intern_access_stack(0x7000000, 3);
  for (snag_site_t s = 1; s <= 5000; ++s) intern_access_stack(0x7000000 + s, 3);
  for (snag_site_t s = 0; s <= 5000; s += 250) {
    uint32_t id = intern_access_stack(0x7000000 + s, 3);
    snag_site_t site;
    StackId context;
    access_stack_of(id, &site, &context);
    EXPECT_EQ(site, 0x7000000 + s);
    EXPECT_EQ(context, 3u);
  }
  EXPECT_EQ(intern_access_stack(0x7000000, 3), first);
}

}  // namespace
}  // namespace snag::race
