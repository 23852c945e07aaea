// Records of reused thread stacks (stack_records.h): a stack seen first is
// cleared whole; a stack seen again from a page below the lowest stack
// pointer its earlier threads noted; a record goes when memory is mapped
// over its stack or another stack is claimed over part of it.
#include <gtest/gtest.h>

#include "engines/race/stack_records.h"

namespace snag::race {
namespace {

constexpr uintptr_t kPage = 4096;
constexpr uintptr_t kSize = 8 * 1024 * 1024;
constexpr uintptr_t kBase = 0x7f0000000000;
constexpr uintptr_t kTop = kBase + kSize;

class StackRecords : public ::testing::Test {
 protected:
  void SetUp() override { reset_stack_records(); }
  void TearDown() override { reset_stack_records(); }
};

TEST_F(StackRecords, AStackSeenFirstIsClearedWhole) {
  const StackClaim claim = claim_stack(kBase, kSize, kTop - 512);
  EXPECT_EQ(claim.dirty_from, kBase);
  ASSERT_NE(claim.low, &g_untracked_stack_low);
  EXPECT_EQ(claim.low->load(), kTop - 512);  // from the new thread's own stack pointer down
}

TEST_F(StackRecords, AStackSeenAgainIsClearedFromAPageBelowTheDeepestPointItsThreadsReached) {
  const StackClaim first = claim_stack(kBase, kSize, kTop - 512);
  first.low->store(kTop - 300 * kPage + 100);  // the thread went 300 pages deep
  const StackClaim second = claim_stack(kBase, kSize, kTop - 512);
  EXPECT_EQ(second.dirty_from, kTop - 301 * kPage);
  EXPECT_EQ(second.low, first.low);
  // The second thread stayed shallow: the third clears what it used only
  // (the first thread's frames went at the second's start).
  const StackClaim third = claim_stack(kBase, kSize, kTop - 512);
  EXPECT_EQ(third.dirty_from, kTop - 2 * kPage);
}

TEST_F(StackRecords, NoteStackDepthLowersTheThreadsCopyAndTheRecordToTheCallersStackPointer) {
  int here = 0;
  const auto sp = reinterpret_cast<uintptr_t>(&here);
  uintptr_t seen = sp + 65536;
  std::atomic<uintptr_t> low{sp + 65536};
  note_stack_depth(seen, &low);
  EXPECT_LT(low.load(), sp + 65536);
  EXPECT_GT(low.load(), sp - 65536);
  EXPECT_EQ(seen, low.load());
  seen = 16;
  low.store(32);
  note_stack_depth(seen, &low);  // never raised
  EXPECT_EQ(seen, 16u);
  EXPECT_EQ(low.load(), 32u);
  uintptr_t untracked = 0;
  note_stack_depth(untracked, &g_untracked_stack_low);
  EXPECT_EQ(g_untracked_stack_low.load(), 0u);  // a stack without a record is never lowered
}

TEST_F(StackRecords, ALowBelowTheStackOrInItsFirstPageClearsItWhole) {
  const StackClaim first = claim_stack(kBase, kSize, kTop - 512);
  first.low->store(kBase - 4096);  // a signal handler on an alternate stack below it
  EXPECT_EQ(claim_stack(kBase, kSize, kTop - 512).dirty_from, kBase);
  first.low->store(kBase + 100);
  EXPECT_EQ(claim_stack(kBase, kSize, kTop - 512).dirty_from, kBase);
}

TEST_F(StackRecords, MemoryMappedOverAStackForgetsItsRecord) {
  const StackClaim first = claim_stack(kBase, kSize, kTop - 512);
  first.low->store(kTop - 4 * kPage);
  forget_stack_records(kBase + kSize / 2, kBase + kSize / 2 + kPage);
  EXPECT_EQ(claim_stack(kBase, kSize, kTop - 512).dirty_from, kBase);
  // Memory mapped elsewhere leaves it alone.
  claim_stack(kBase, kSize, kTop - 512).low->store(kTop - 4 * kPage);
  forget_stack_records(kTop, kTop + kPage);
  forget_stack_records(kBase - kPage, kBase);
  EXPECT_EQ(claim_stack(kBase, kSize, kTop - 512).dirty_from, kTop - 5 * kPage);
}

TEST_F(StackRecords, AStackClaimedOverPartOfAnotherForgetsTheOther) {
  claim_stack(kBase, kSize, kTop - 512).low->store(kTop - 4 * kPage);
  // glibc unmapped it and mapped a larger stack that covers part of it.
  const uintptr_t other = kBase + kSize / 2;
  EXPECT_EQ(claim_stack(other, kSize, other + kSize - 512).dirty_from, other);
  EXPECT_EQ(claim_stack(kBase, kSize, kTop - 512).dirty_from, kBase);
}

TEST_F(StackRecords, ManyStacksEachKeepTheirRecord) {
  constexpr int kStacks = 100;
  for (int i = 0; i < kStacks; ++i) {
    const uintptr_t base = kBase + uintptr_t(i) * (kSize + kPage);
    claim_stack(base, kSize, base + kSize - 512).low->store(base + kSize - (i + 2) * kPage);
  }
  for (int i = 0; i < kStacks; ++i) {
    const uintptr_t base = kBase + uintptr_t(i) * (kSize + kPage);
    EXPECT_EQ(claim_stack(base, kSize, base + kSize - 512).dirty_from, base + kSize - (i + 3) * kPage) << i;
  }
}

}  // namespace
}  // namespace snag::race
