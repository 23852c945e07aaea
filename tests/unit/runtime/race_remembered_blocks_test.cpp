// The access fast path's remembered blocks (engines/race/fast_path.h): the
// coarse blocks a thread last found it owns answer an access inside them
// from the block record's state, without the shadow. Each answer must be
// the one the shadow path gives: nothing stale after the record is freed,
// reused for another block, made fine or cut into chunks.
#include "engines/race/fast_path.h"

#include <gtest/gtest.h>

#include "race_fast_path_on.h"

namespace snag::race {
namespace {

constexpr uintptr_t kRegion = 0xc000000;  // addresses of these tests only
constexpr Tid kMe = 5;
constexpr Clock kNow = 70;

uint64_t mine(bool wrote) { return exclusive_word(Kind::kExclusive1, kMe, kNow, wrote); }

// Each test runs as thread kMe in epoch kNow with the fast path on, and
// frees the blocks it made.
class RememberedBlocks : public ::testing::Test {
 protected:
  // A coarse heap block over [begin, begin + size), as on_alloc makes one.
  HeapBlock *coarse_block(uintptr_t begin, uintptr_t size) {
    HeapBlock *block = new_heap_block(cache_, begin, size, 0, 0);
    shadow_mark_block(begin, begin + size, block);
    return block;
  }
  // A coarse block this thread wrote in its epoch, remembered by a first
  // access at `first` that the shadow path answered.
  HeapBlock *remembered_block(uintptr_t begin, uintptr_t size, uintptr_t first) {
    HeapBlock *block = coarse_block(begin, size);
    block->state.store(mine(true));
    shadow_cell(first);  // the slot has shadow (in a program, its other accesses reserved it)
    EXPECT_TRUE(access_needs_no_work(first, 8, true));
    EXPECT_EQ(t_fast_path.remembered[0].block, block);
    return block;
  }
  // A vector's block at `base`, found first by a field access, and two
  // strings' blocks (64 bytes each) 1 and 2 MiB above it, all read by this
  // thread in its epoch: what a sort of the vector's strings works on.
  struct VectorAndStrings {
    uintptr_t vec, s1, s2;
    HeapBlock *blocks[3];
  };
  VectorAndStrings vector_and_two_strings(uintptr_t base) {
    VectorAndStrings v{base, base + 0x100000, base + 0x200000, {}};
    v.blocks[0] = coarse_block(v.vec, 256);
    v.blocks[1] = coarse_block(v.s1, 64);
    v.blocks[2] = coarse_block(v.s2, 64);
    for (HeapBlock *block : v.blocks) block->state.store(mine(false));
    EXPECT_TRUE(access_needs_no_work(v.vec + 8, 8, false));  // a field: first
    return v;
  }
  void free_block(HeapBlock *block) {
    shadow_clear(block->start, block_end(block));
    delete_heap_block(cache_, block);
  }
  void TearDown() override { release_block_cache(cache_); }

  test_support::FastPathOn on_{kMe, kNow};
  BlockCache cache_;
};

TEST_F(RememberedBlocks, AnAccessInsideTheBlockIsAnsweredByItsRecord) {
  const uintptr_t begin = kRegion, size = 3 * kPageSize + 24;
  HeapBlock *block = coarse_block(begin, size);
  block->state.store(mine(true));
  EXPECT_FALSE(cached_block_needs_no_work(begin + 8, 8, false));  // nothing remembered yet
  EXPECT_TRUE(access_needs_no_work(begin + 8, 8, false));         // found through the shadow
  EXPECT_EQ(t_fast_path.remembered[0].block, block);
  EXPECT_TRUE(cached_block_needs_no_work(begin + 8, 8, true));
  EXPECT_TRUE(cached_block_needs_no_work(begin + size - 4, 4, true));  // the last bytes
  EXPECT_FALSE(cached_block_needs_no_work(begin + size - 4, 8, true));  // past the end
  EXPECT_FALSE(cached_block_needs_no_work(begin - 8, 8, true));         // before it
  // The state still decides: a first write in the epoch, another epoch,
  // another thread's block all take the engine.
  block->state.store(mine(false));
  EXPECT_TRUE(access_quickly_needs_no_work(begin + 64, 8, false));
  EXPECT_FALSE(access_quickly_needs_no_work(begin + 64, 8, true));
  block->state.store(exclusive_word(Kind::kExclusive1, kMe, kNow - 1, true));
  EXPECT_FALSE(access_needs_no_work(begin + 64, 8, false));
  block->state.store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));
  EXPECT_FALSE(access_needs_no_work(begin + 64, 8, false));
  block->state.store(shared_word(Kind::kSharedRead, kEmptyLockset));
  EXPECT_TRUE(cached_block_needs_no_work(begin + 64, 8, false));
  EXPECT_FALSE(cached_block_needs_no_work(begin + 64, 8, true));
  free_block(block);
}

TEST_F(RememberedBlocks, NothingWhileTheFastPathIsOff) {
  const uintptr_t begin = kRegion + 0x100000, size = 256;
  HeapBlock *block = remembered_block(begin, size, begin);
  t_fast_path.epoch_word = 0;  // another engine joined
  EXPECT_FALSE(access_needs_no_work(begin, 8, true));
  EXPECT_FALSE(access_quickly_needs_no_work(begin, 8, true));
  free_block(block);
}

// A freed block's record goes back to the thread's cache of records and
// tracks the next block allocated: the remembered range no longer matches
// the record's, so its state (the new block's) answers nothing there.
TEST_F(RememberedBlocks, AFreedRecordReusedForAnotherBlockAnswersNothingForTheOldRange) {
  const uintptr_t old_begin = kRegion + 0x200000, new_begin = kRegion + 0x300000, size = 512;
  HeapBlock *old_block = remembered_block(old_begin, size, old_begin + 16);
  free_block(old_block);
  EXPECT_FALSE(cached_block_needs_no_work(old_begin + 16, 8, false));  // freed: no range
  HeapBlock *new_block = coarse_block(new_begin, size);
  ASSERT_EQ(new_block, old_block);  // the same record
  new_block->state.store(mine(true));
  EXPECT_FALSE(cached_block_needs_no_work(old_begin + 16, 8, false));
  EXPECT_FALSE(access_needs_no_work(old_begin + 16, 8, false));  // the old range is untracked now
  EXPECT_TRUE(access_needs_no_work(new_begin + 16, 8, false));
  EXPECT_TRUE(cached_block_needs_no_work(new_begin + 16, 8, true));
  free_block(new_block);
}

// Reused for a block at the same address and size, the record is that
// block's: it starts Virgin, and the engine must see the first access.
TEST_F(RememberedBlocks, ARecordReusedAtTheSameAddressStartsVirgin) {
  const uintptr_t begin = kRegion + 0x400000, size = 128;
  HeapBlock *block = remembered_block(begin, size, begin);
  free_block(block);
  HeapBlock *again = coarse_block(begin, size);
  ASSERT_EQ(again, block);
  EXPECT_FALSE(cached_block_needs_no_work(begin, 8, false));
  EXPECT_FALSE(access_needs_no_work(begin, 8, false));
  again->state.store(mine(false));
  EXPECT_TRUE(cached_block_needs_no_work(begin, 8, false));
  free_block(again);
}

// A block that goes fine has per-granule states from then on: its record's
// state answers nothing, the granules' words decide.
TEST_F(RememberedBlocks, ABlockGoneFineIsAskedGranuleByGranule) {
  const uintptr_t begin = kRegion + 0x500000, size = 2 * kPageSize;
  HeapBlock *block = remembered_block(begin, size, begin + kPageSize);
  ASSERT_TRUE(make_block_fine(block));
  EXPECT_FALSE(cached_block_needs_no_work(begin + kPageSize, 8, false));
  EXPECT_FALSE(access_needs_no_work(begin + kPageSize, 8, false));  // a Virgin granule
  shadow_cell(begin + 8)->store(mine(true));
  EXPECT_TRUE(access_needs_no_work(begin + 8, 8, true));  // the granule's own state
  EXPECT_EQ(t_fast_path.remembered[0].block, block);      // not remembered again
  EXPECT_FALSE(cached_block_needs_no_work(begin + 8, 8, true));
  free_block(block);
}

// A large block cut into chunks is fine itself; each chunk is a coarse
// record of its own, remembered like a block.
TEST_F(RememberedBlocks, ABlockCutIntoChunksIsAnsweredByItsChunks) {
  const uintptr_t begin = kRegion + 0x600000, size = 4 * kChunkSize;
  const uintptr_t in_third = begin + 2 * kChunkSize + 64;
  HeapBlock *block = remembered_block(begin, size, in_third);
  ASSERT_TRUE(cut_block_into_chunks(block, nullptr));
  EXPECT_FALSE(cached_block_needs_no_work(in_third, 8, false));
  HeapBlock *chunk = find_tracking_block(in_third);
  ASSERT_NE(chunk, block);
  EXPECT_EQ(chunk->start, begin + 2 * kChunkSize);
  chunk->state.store(mine(true));
  // The granule's word still names the block; the engine's hook rewrites
  // it to the chunk (race_access.cpp), after which the chunk is found.
  shadow_cell(in_third)->store(pointer_word(Kind::kIndirect, chunk));
  EXPECT_TRUE(access_needs_no_work(in_third, 8, false));
  EXPECT_EQ(t_fast_path.remembered[0].block, chunk);
  EXPECT_TRUE(cached_block_needs_no_work(begin + 3 * kChunkSize - 8, 8, true));
  EXPECT_FALSE(cached_block_needs_no_work(begin + 3 * kChunkSize, 8, true));  // the next chunk
  free_block(block);
}

// Two blocks stay remembered (a loop reading one and writing the other);
// a third makes the least recently found one forgotten.
TEST_F(RememberedBlocks, TwoBlocksAreRememberedTheOldestIsForgotten) {
  const uintptr_t a = kRegion + 0x800000, b = kRegion + 0x900000, c = kRegion + 0xa00000;
  HeapBlock *blocks[3] = {coarse_block(a, 64), coarse_block(b, 64), coarse_block(c, 64)};
  for (HeapBlock *block : blocks) block->state.store(mine(true));
  ASSERT_TRUE(access_needs_no_work(a, 8, true));
  ASSERT_TRUE(access_needs_no_work(b, 8, true));
  EXPECT_TRUE(cached_block_needs_no_work(a + 8, 8, true));
  EXPECT_TRUE(cached_block_needs_no_work(b + 8, 8, true));
  ASSERT_TRUE(access_needs_no_work(b + 16, 8, true));  // found again: nothing moves
  EXPECT_TRUE(cached_block_needs_no_work(a + 8, 8, true));
  ASSERT_TRUE(access_needs_no_work(c, 8, true));
  EXPECT_TRUE(cached_block_needs_no_work(c + 8, 8, true));
  EXPECT_TRUE(cached_block_needs_no_work(b + 8, 8, true));
  EXPECT_FALSE(cached_block_needs_no_work(a + 8, 8, true));  // forgotten, still answered by the shadow
  EXPECT_TRUE(access_needs_no_work(a + 8, 8, true));
  for (HeapBlock *block : blocks) free_block(block);
}

// A range access (memcmp's, memcpy's) answered by a block remembers it in
// the last slot, and leaves the order alone when the block is remembered
// already: the block the thread's field accesses found first stays. A sort
// comparing the strings of a vector reads two string buffers (two blocks)
// per comparison; remembered first, they pushed the vector's block out
// before the string moves that follow each comparison.
TEST_F(RememberedBlocks, ARangeAccessKeepsTheFirstRememberedBlock) {
  const auto [vec, s1, s2, blocks] = vector_and_two_strings(kRegion + 0xc00000);
  // A range of one granule (the range hooks ask it as an access, but
  // remembering behind: access_quickly_needs_no_work<Remember::kBehind>).
  uint64_t seen;
  ASSERT_TRUE(access_quickly_needs_no_work<Remember::kBehind>(s1 + 8, 8, false, &seen));
  EXPECT_EQ(t_fast_path.remembered[0].block, blocks[0]);
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[1]);
  ASSERT_TRUE(range_quickly_needs_no_work(s1, 24, false));
  EXPECT_EQ(t_fast_path.remembered[0].block, blocks[0]);
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[1]);
  ASSERT_TRUE(range_quickly_needs_no_work(s2, 24, false));
  EXPECT_EQ(t_fast_path.remembered[0].block, blocks[0]);
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[2]);
  EXPECT_TRUE(cached_block_needs_no_work(vec + 32, 8, false));
  // Remembered already (in either slot): nothing moves.
  ASSERT_TRUE(range_quickly_needs_no_work(s2 + 8, 16, false));
  ASSERT_TRUE(range_quickly_needs_no_work(vec + 64, 32, false));
  EXPECT_EQ(t_fast_path.remembered[0].block, blocks[0]);
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[2]);
  // A field access still brings its block first.
  ASSERT_TRUE(access_needs_no_work(s1 + 8, 8, false));
  EXPECT_EQ(t_fast_path.remembered[0].block, blocks[1]);
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[0]);
  for (HeapBlock *block : blocks) free_block(block);
}

// The block a range access pushes out of the last slot stays as the spare
// behind it, and a range inside it is answered from its record (not the
// shadow) and brings it back into the slot: a comparison of one string with
// many (a sort's pivot) finds that string without the shadow every time.
// The spare is a hint like the slots: a record reused for another block
// answers nothing for the old range.
TEST_F(RememberedBlocks, TheBlockARangePushesOutStaysBehindAsTheSpare) {
  const auto [vec, s1, s2, blocks] = vector_and_two_strings(kRegion + 0x1200000);
  uint64_t seen;
  ASSERT_TRUE(access_quickly_needs_no_work<Remember::kBehind>(s1 + 8, 8, false, &seen));
  ASSERT_TRUE(access_quickly_needs_no_work<Remember::kBehind>(s2 + 8, 4, false, &seen));
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[2]);
  EXPECT_EQ(t_fast_path.behind_spare.block, blocks[1]);
  // s1's granule words cleared: only its record can answer now.
  shadow_cell(s1 + 8)->store(0);
  shadow_cell(s1 + 16)->store(0);
  EXPECT_TRUE(access_quickly_needs_no_work<Remember::kBehind>(s1 + 8, 8, false, &seen));
  EXPECT_EQ(t_fast_path.remembered[0].block, blocks[0]);
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[1]);
  EXPECT_EQ(t_fast_path.behind_spare.block, blocks[2]);
  EXPECT_TRUE(range_quickly_needs_no_work(s2, 24, false));  // the spare for a larger range too
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[2]);
  EXPECT_TRUE(range_quickly_needs_no_work(s1 + 8, 16, false));
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[1]);
  // The state still decides: a write needs the engine (the spare found
  // changes places all the same).
  EXPECT_FALSE(access_quickly_needs_no_work<Remember::kBehind>(s2 + 8, 8, true, &seen));
  EXPECT_EQ(t_fast_path.remembered[1].block, blocks[2]);
  EXPECT_EQ(t_fast_path.behind_spare.block, blocks[1]);
  // The plain accesses' check does not ask the spare.
  EXPECT_FALSE(cached_block_needs_no_work(s1 + 8, 8, false));
  // Freed and reused at another address, the spare's record answers
  // nothing in the old range.
  free_block(blocks[1]);
  HeapBlock *reused = coarse_block(kRegion + 0x1500000, 64);
  ASSERT_EQ(reused, blocks[1]);
  reused->state.store(mine(true));
  EXPECT_FALSE(access_quickly_needs_no_work<Remember::kBehind>(s1 + 8, 8, false, &seen));
  EXPECT_FALSE(range_quickly_needs_no_work(s1, 24, false));
  free_block(blocks[0]);
  free_block(blocks[2]);
  free_block(reused);
}

// A block of 1 MiB or more has no state words for its granules; remembered,
// its accesses skip the page lookup as well.
TEST_F(RememberedBlocks, ALargeBlockIsRememberedFromItsPage) {
  const uintptr_t begin = kRegion + 0x1000000, size = uintptr_t(1) << 20;
  HeapBlock *block = remembered_block(begin, size, begin + 8 * kPageSize);
  EXPECT_EQ(shadow_cell(begin + 8 * kPageSize)->load(), 0u);  // still no state word
  EXPECT_TRUE(cached_block_needs_no_work(begin + size - 8, 8, true));
  free_block(block);
}

// The question before a loop is answered by a remembered block's state too,
// and gives the same answers as the shadow walk.
TEST_F(RememberedBlocks, ALoopRangeInsideARememberedBlock) {
  const uintptr_t begin = kRegion + 0xb00000, size = 1024;
  HeapBlock *block = remembered_block(begin, size, begin);
  block->state.store(mine(false));
  EXPECT_TRUE(range_needs_no_work(begin + 64, 512, false));
  EXPECT_FALSE(range_needs_no_work(begin + 64, 512, true));  // a first write in this epoch
  EXPECT_FALSE(range_needs_no_work(begin + 64, size, false));  // runs past the block
  block->state.store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));
  EXPECT_FALSE(range_needs_no_work(begin + 64, 512, false));
  free_block(block);
}

}  // namespace
}  // namespace snag::race
