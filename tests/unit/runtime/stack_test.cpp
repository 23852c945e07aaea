#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/internal_alloc.h"
#include "core/stack.h"

namespace snag {
namespace {

TEST(ShadowStack, CaptureIsInnermostFirst) {
  ShadowStack s;
  s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  s.push(0x100, 3000);  // main called from nowhere known
  s.push(0x200, 2000);
  s.push(0x300, 1000);
  StackTrace t;
  capture_stack(s, 0x999, &t);
  ASSERT_EQ(t.depth, 4u);
  EXPECT_EQ(t.frames[0], 0x999u);
  EXPECT_EQ(t.frames[1], 0x300u);
  EXPECT_EQ(t.frames[3], 0x100u);
  internal_free(s.frames);
}

TEST(ShadowStack, EntryDropsFramesSkippedByUnwinding) {
  ShadowStack s;
  s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  s.push(0x1, 3000);
  s.push(0x2, 2000);
  s.push(0x3, 1000);  // these two returned by an exception: no func_exit
  // A new call from the frame at 3000 lands at 2000 again.
  s.push(0x4, 2000);
  EXPECT_EQ(s.depth, 2u);
  StackTrace t;
  capture_stack(s, 0, &t);
  ASSERT_EQ(t.depth, 2u);
  EXPECT_EQ(t.frames[0], 0x4u);
  EXPECT_EQ(t.frames[1], 0x1u);
  internal_free(s.frames);
}

TEST(ShadowStack, DeepRecursionKeepsCountButNotFrames) {
  ShadowStack s;
  s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  for (uint32_t i = 0; i < 1000; ++i) s.push(i + 1, 1000000 - i * 16);
  EXPECT_EQ(s.depth, 1000u);
  for (int i = 0; i < 1000; ++i) s.pop();
  EXPECT_EQ(s.depth, 0u);
  internal_free(s.frames);
}

TEST(StackDepot, InternsEqualTraces) {
  StackTrace a;
  a.depth = 3;
  a.frames[0] = 11, a.frames[1] = 22, a.frames[2] = 33;
  StackTrace b = a;
  StackId ia = depot_put(a), ib = depot_put(b);
  EXPECT_NE(ia, 0u);
  EXPECT_EQ(ia, ib);
  b.frames[2] = 34;
  EXPECT_NE(depot_put(b), ia);
  StackTrace out;
  depot_get(ia, &out);
  ASSERT_EQ(out.depth, 3u);
  EXPECT_EQ(out.frames[2], 33u);
  EXPECT_EQ(depot_put(StackTrace{}), 0u);
}

// depot_holds answers for the race engine's allocation stacks without a
// capture (race_access.cpp, allocation_stack): it must say no whenever
// capture_stack would give another trace, a caller far down included.
TEST(StackDepot, HoldsOnlyTheStackACaptureWouldGive) {
  ShadowStack s;
  s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  s.push(0x501, 5000);
  s.push(0, 4000);  // a frame without a call site: left out of a capture
  s.push(0x503, 3000);
  s.push(0x504, 2000);
  StackTrace t;
  capture_stack(s, 0x5ff, &t);
  const StackId id = depot_put(t);
  EXPECT_TRUE(depot_holds(id, s, 0x5ff));
  EXPECT_FALSE(depot_holds(id, s, 0x5fe)) << "another site on top";
  EXPECT_FALSE(depot_holds(id, s, 0)) << "no site on top";
  EXPECT_FALSE(depot_holds(0, s, 0x5ff));
  // The same top frames reached from another caller at the bottom.
  s.frames[0].call_site = 0x511;
  EXPECT_FALSE(depot_holds(id, s, 0x5ff));
  s.frames[0].call_site = 0x501;
  EXPECT_TRUE(depot_holds(id, s, 0x5ff));
  s.push(0x505, 1000);  // one call deeper
  EXPECT_FALSE(depot_holds(id, s, 0x5ff));
  s.pop();
  s.pop();  // one call shallower
  EXPECT_FALSE(depot_holds(id, s, 0x5ff));
  // Without a shadow stack: only the site.
  ShadowStack none;
  StackTrace top_only;
  capture_stack(none, 0x5ff, &top_only);
  EXPECT_TRUE(depot_holds(depot_put(top_only), none, 0x5ff));
  EXPECT_FALSE(depot_holds(id, none, 0x5ff));
  internal_free(s.frames);
}

TEST(StackDepot, ConcurrentInsertsAgree) {
  std::vector<StackId> ids(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &ids] {
      StackId last = 0;
      for (uint64_t i = 1; i <= 2000; ++i) {
        StackTrace s;
        s.depth = 2;
        s.frames[0] = i;
        s.frames[1] = 77;
        last = depot_put(s);
      }
      ids[t] = last;
    });
  for (auto &th : threads) th.join();
  for (int t = 1; t < 4; ++t) EXPECT_EQ(ids[t], ids[0]);
}

}  // namespace
}  // namespace snag
