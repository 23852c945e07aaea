// The question asked before a loop (engines/race/fast_path.cpp): yes only
// when every access of the loop inside the range would change nothing, i.e.
// what the access fast path (fast_path.h) would say of each of them.
#include "engines/race/fast_path.h"

#include <gtest/gtest.h>

#include "race_fast_path_on.h"

namespace snag::race {
namespace {

constexpr uintptr_t kRegion = 0xb000000;  // addresses of these tests only
constexpr Tid kMe = 3;
constexpr Clock kNow = 40;

// The calling thread as the race engine publishes it: alone, epoch kNow.
struct FastPathOn : test_support::FastPathOn {
  FastPathOn() : test_support::FastPathOn(kMe, kNow) {}
};

uint64_t mine(bool wrote) { return exclusive_word(Kind::kExclusive1, kMe, kNow, wrote); }

void set_words(uintptr_t begin, uintptr_t end, uint64_t word) {
  for (uintptr_t g = begin; g < end; g += kGranule) shadow_cell(g)->store(word);
}

TEST(LoopRanges, GranulesThisThreadOwnsInItsEpochNeedNoWork) {
  FastPathOn on;
  const uintptr_t base = kRegion;
  set_words(base, base + 256, mine(true));
  EXPECT_TRUE(range_needs_no_work(base, 256, /*write=*/true));
  EXPECT_TRUE(range_needs_no_work(base + 3, 100, /*write=*/false));
}

TEST(LoopRanges, AnyGranuleThatWouldChangeMakesTheAnswerNo) {
  FastPathOn on;
  const uintptr_t base = kRegion + 0x10000;
  set_words(base, base + 256, mine(false));
  EXPECT_TRUE(range_needs_no_work(base, 256, false));
  EXPECT_FALSE(range_needs_no_work(base, 256, true));  // a first write in this epoch
  shadow_cell(base + 128)->store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow));
  EXPECT_FALSE(range_needs_no_work(base, 256, false));  // another thread's granule
  EXPECT_TRUE(range_needs_no_work(base, 128, false));
  shadow_cell(base + 64)->store(exclusive_word(Kind::kExclusive1, kMe, kNow - 1));
  EXPECT_FALSE(range_needs_no_work(base, 128, false));  // an earlier epoch
  shadow_cell(base + 64)->store(0);
  EXPECT_FALSE(range_needs_no_work(base, 128, false));  // never accessed
}

TEST(LoopRanges, OnlyTheBytesTheRangeTouchesMustBeOwned) {
  FastPathOn on;
  const uintptr_t base = kRegion + 0x20000;
  // The owner touched bytes 0-3 of the granule only.
  shadow_cell(base)->store(exclusive_word(Kind::kExclusive1, kMe, kNow, true, 0x0f));
  EXPECT_TRUE(range_needs_no_work(base, 4, true));
  EXPECT_FALSE(range_needs_no_work(base, 5, true));
  EXPECT_FALSE(range_needs_no_work(base + 4, 2, false));
}

TEST(LoopRanges, ACoarseBlockIsAnsweredByItsOneState) {
  FastPathOn on;
  BlockCache cache;
  const uintptr_t begin = kRegion + 0x40000, size = 8 * kPageSize + 40;
  HeapBlock *block = new_heap_block(cache, begin, size, 0, 0);
  shadow_mark_block(begin, begin + size, block);
  block->state.store(mine(true));
  EXPECT_TRUE(range_needs_no_work(begin, size, true));
  EXPECT_FALSE(range_needs_no_work(begin, size + 8, true));  // past the block
  block->fine.store(true);
  EXPECT_FALSE(range_needs_no_work(begin, size, false));  // per-granule states now
  block->fine.store(false);
  block->state.store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));
  EXPECT_FALSE(range_needs_no_work(begin, 16, false));
  shadow_clear(begin, begin + size);
  delete_heap_block(cache, block);
  release_block_cache(cache);
}

// The single-access fast path: a granule of a whole page of a coarse block
// keeps its Virgin word (the page points at the block) until the engine's
// hook writes an Indirect word there; the fast path answers it from the
// block's state all the same.
TEST(AccessFastPath, AVirginGranuleInAWholePageOfACoarseBlockIsAnsweredByTheBlock) {
  FastPathOn on;
  BlockCache cache;
  const uintptr_t begin = kRegion + 0x80000, size = 3 * kPageSize;  // under kWordsWrittenBelow
  HeapBlock *block = new_heap_block(cache, begin, size, 0, 0);
  shadow_mark_block(begin, begin + size, block);
  ASSERT_EQ(shadow_cell(begin + kPageSize + 16)->load(), 0u);
  EXPECT_FALSE(access_needs_no_work(begin + kPageSize + 16, 4, true));  // block still Virgin
  block->state.store(mine(true));
  EXPECT_TRUE(access_needs_no_work(begin + kPageSize + 16, 4, true));
  EXPECT_TRUE(access_needs_no_work(begin + 2 * kPageSize + 4, 4, false));
  // A block this small has the block's word written, so the next access
  // finds it from the word.
  EXPECT_EQ(shadow_cell(begin + kPageSize + 16)->load(), pointer_word(Kind::kIndirect, block));
  block->state.store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));
  EXPECT_FALSE(access_needs_no_work(begin + kPageSize + 16, 4, false));  // another thread's block
  block->state.store(mine(true));
  block->fine.store(true);
  EXPECT_FALSE(access_needs_no_work(begin + kPageSize + 16, 4, false));  // per-granule states now
  shadow_clear(begin, begin + size);
  delete_heap_block(cache, block);
  release_block_cache(cache);
}

// A block of 1 MiB or more keeps its granules' words unwritten: a buffer one
// thread fills costs no shadow for the granules it touches.
TEST(AccessFastPath, ALargeCoarseBlockGetsNoStateWords) {
  FastPathOn on;
  BlockCache cache;
  const uintptr_t begin = kRegion + 0x1000000, size = uintptr_t(1) << 20;
  HeapBlock *block = new_heap_block(cache, begin, size, 0, 0);
  shadow_mark_block(begin, begin + size, block);
  block->state.store(mine(true));
  ASSERT_EQ(shadow_cell(begin + 4 * kPageSize)->load(), 0u);  // the slot has shadow
  EXPECT_TRUE(access_needs_no_work(begin + 4 * kPageSize, 8, true));
  EXPECT_EQ(shadow_cell(begin + 4 * kPageSize)->load(), 0u);
  shadow_clear(begin, begin + size);
  delete_heap_block(cache, block);
  release_block_cache(cache);
}

// So does a mid-sized one, from kWordsWrittenBelow (16 KiB) on (an
// unordered_map's bucket array read at random: a resident shadow page for
// every page it read); a block just under that size still gets the words
// of the granules it touches.
TEST(AccessFastPath, AMidSizedCoarseBlockGetsNoStateWordsOnItsWholePages) {
  FastPathOn on;
  BlockCache cache;
  const uintptr_t begin = kRegion + 0x2000000, size = uintptr_t(16) << 10;
  ASSERT_EQ(size, kWordsWrittenBelow);
  HeapBlock *block = new_heap_block(cache, begin, size, 0, 0);
  shadow_mark_block(begin, begin + size, block);
  block->state.store(mine(true));
  const uintptr_t inside = begin + 2 * kPageSize + 24;
  ASSERT_EQ(shadow_cell(inside)->load(), 0u);
  EXPECT_TRUE(access_needs_no_work(inside, 8, true));
  EXPECT_EQ(shadow_cell(inside)->load(), 0u);
  // The hooks' answer for such a granule, before the engine's call chain.
  EXPECT_TRUE(untouched_access_needs_no_work(inside, 8, true));
  EXPECT_FALSE(untouched_access_needs_no_work(inside + 4, 8, true));  // over two granules: the engine's
  block->state.store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));
  EXPECT_FALSE(untouched_access_needs_no_work(inside, 8, false));  // another thread's block
  shadow_clear(begin, begin + size);
  delete_heap_block(cache, block);

  const uintptr_t smaller = size - kPageSize;
  block = new_heap_block(cache, begin, smaller, 0, 0);
  shadow_mark_block(begin, begin + smaller, block);
  block->state.store(mine(true));
  EXPECT_TRUE(access_needs_no_work(inside, 8, true));
  EXPECT_EQ(shadow_cell(inside)->load(), pointer_word(Kind::kIndirect, block));
  shadow_clear(begin, begin + smaller);
  delete_heap_block(cache, block);
  release_block_cache(cache);
}

// A thread finds the large block of an untouched granule through its hint
// for the granule's 16 KiB region next time (fast_path.h, UntouchedHint),
// without the page lookup, once the two remembered blocks hold others; a
// hint is a place to look, so a block another thread owns, one gone fine,
// a freed record and a record reused elsewhere answer no.
TEST(AccessFastPath, ALargeBlockIsFoundAgainThroughItsRegionsHint) {
  FastPathOn on;
  static UntouchedHint hints[kUntouchedHints];
  t_untouched_hints = hints;
  BlockCache cache;
  const uintptr_t begin = kRegion + 0x3000000, size = uintptr_t(64) << 10;
  HeapBlock *block = new_heap_block(cache, begin, size, 0, 0);
  shadow_mark_block(begin, begin + size, block);
  block->state.store(mine(true));
  const uintptr_t inside = begin + 2 * kPageSize + 24, same_region = begin + kPageSize + 8;
  ASSERT_EQ(inside >> kUntouchedHintShift, same_region >> kUntouchedHintShift);
  EXPECT_FALSE(hinted_access_needs_no_work(inside, 8, true)) << "no hint before the first lookup";
  EXPECT_FALSE(hinted_access_needs_no_work(8, 8, false)) << "a null pointer's region has no hint either";
  EXPECT_TRUE(untouched_access_needs_no_work(inside, 8, true));
  // Two other blocks remembered since: the hint still finds this one.
  HeapBlock *other[2];
  for (int i = 0; i < 2; ++i) {
    other[i] = new_heap_block(cache, begin + size + 64 * i, 32, 0, 0);
    remember_block(other[i]);
  }
  ASSERT_FALSE(cached_block_needs_no_work(same_region, 8, true));
  EXPECT_TRUE(hinted_access_needs_no_work(same_region, 8, true));
  EXPECT_TRUE(cached_block_needs_no_work(same_region, 8, true)) << "remembered first again";
  EXPECT_FALSE(hinted_access_needs_no_work(same_region + 4, 8, true)) << "over two granules";
  block->state.store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));
  EXPECT_FALSE(hinted_access_needs_no_work(same_region, 8, false)) << "another thread's block";
  block->state.store(mine(true));
  block->fine.store(true);
  EXPECT_FALSE(hinted_access_needs_no_work(same_region, 8, false)) << "gone fine";
  block->fine.store(false);
  EXPECT_TRUE(hinted_access_needs_no_work(same_region, 8, false));
  block->state.store(mine(false));
  EXPECT_FALSE(hinted_access_needs_no_work(same_region, 8, true)) << "its first write in this epoch";
  EXPECT_TRUE(hinted_access_needs_no_work(same_region, 8, false));
  shadow_clear(begin, begin + size);
  delete_heap_block(cache, block);
  EXPECT_FALSE(hinted_access_needs_no_work(same_region, 8, false)) << "freed";
  // The record given to a block elsewhere (maybe the same record): the
  // hint's region is not inside it.
  HeapBlock *elsewhere = new_heap_block(cache, begin + 4 * size, size, 0, 0);
  elsewhere->state.store(mine(true));
  EXPECT_FALSE(hinted_access_needs_no_work(same_region, 8, false));
  delete_heap_block(cache, elsewhere);
  for (HeapBlock *b : other) delete_heap_block(cache, b);
  release_block_cache(cache);
  t_untouched_hints = kNoUntouchedHints;
}

// A granule split into bytes (two variables shared its 8 bytes once, and it
// stays split) is answered from the states of the bytes an access touches,
// each as the engine answers a byte: inline, and for a loop's range.
TEST(AccessFastPath, ASplitGranuleIsAnsweredByTheBytesTheAccessTouches) {
  FastPathOn on;
  const uintptr_t g = kRegion + 0x90000;
  static SplitGranule split;
  for (uint32_t b = 0; b < 4; ++b) split.state[b].store(mine(true));
  for (uint32_t b = 4; b < 6; ++b) split.state[b].store(mine(false));
  split.state[6].store(exclusive_word(Kind::kExclusive1, kMe + 1, kNow, true));  // another thread's
  split.state[7].store(0);                                                       // never accessed
  shadow_cell(g)->store(pointer_word(Kind::kIndirect, &split));
  EXPECT_TRUE(access_needs_no_work(g, 4, true));
  EXPECT_TRUE(access_needs_no_work(g + 2, 4, false));
  EXPECT_FALSE(access_needs_no_work(g + 2, 4, true));  // a first write to bytes 4-5 in this epoch
  EXPECT_FALSE(access_needs_no_work(g + 6, 1, false));
  EXPECT_FALSE(access_needs_no_work(g + 7, 1, false));
  EXPECT_FALSE(access_needs_no_work(g, 8, false));
  EXPECT_TRUE(range_needs_no_work(g, 6, false));
  EXPECT_FALSE(range_needs_no_work(g, 7, false));
  split.state[0].store(exclusive_word(Kind::kExclusive1, kMe, kNow - 1, true));  // an earlier epoch
  EXPECT_FALSE(access_needs_no_work(g, 4, false));
  EXPECT_FALSE(range_needs_no_work(g, 6, false));
  shadow_cell(g)->store(0);
}

TEST(LoopRanges, SharedReadDataNeedsNoWorkForReadsOnly) {
  FastPathOn on;
  const uintptr_t base = kRegion + 0x60000;
  set_words(base, base + 64, shared_word(Kind::kSharedRead, kEmptyLockset));
  EXPECT_TRUE(range_needs_no_work(base, 64, false));
  EXPECT_FALSE(range_needs_no_work(base, 64, true));
}

TEST(LoopRanges, NoWhenTheFastPathIsOffOrTheRangeIsNotABuffer) {
  const uintptr_t base = kRegion + 0x70000;
  set_words(base, base + 64, mine(true));
  EXPECT_FALSE(range_needs_no_work(base, 64, false));  // another engine watches too
  FastPathOn on;
  EXPECT_TRUE(range_needs_no_work(base, 64, false));
  EXPECT_FALSE(range_needs_no_work(base, 0, false));
  EXPECT_FALSE(range_needs_no_work(base, uintptr_t(1) << 41, false));  // a wrapped bound
  EXPECT_FALSE(range_needs_no_work(~uintptr_t(0) - 8, 64, false));
}

// A masked index's loop (b[i & 31] for i from `first`, taken + 1 times) is
// asked about the slots it reaches, one or two runs, not the whole ring.
TEST(LoopRanges, ARingIsAskedAboutTheSlotsTheLoopReaches) {
  FastPathOn on;
  const uintptr_t base = kRegion + 0x80000;  // 32 ints: slot s in granule s / 2
  set_words(base, base + 64, mine(false));    // slots 0-15
  set_words(base + 64, base + 128, exclusive_word(Kind::kExclusive1, kMe + 1, kNow));
  EXPECT_TRUE(ring_needs_no_work(base, 4, 32, 0, 15, 4, false));    // slots 0-15
  EXPECT_FALSE(ring_needs_no_work(base, 4, 32, 0, 16, 4, false));   // and 16
  EXPECT_FALSE(ring_needs_no_work(base, 4, 32, 0, 31, 4, false));   // every slot
  EXPECT_FALSE(ring_needs_no_work(base, 4, 32, 0, ~uintptr_t(0), 4, false));
  EXPECT_TRUE(ring_needs_no_work(base, 4, 32, 4, 5, 4, false));     // slots 4-9
  shadow_cell(base + 120)->store(mine(false));                      // slots 30 and 31
  EXPECT_TRUE(ring_needs_no_work(base, 4, 32, 30, 5, 4, false));    // 30, 31, then 0-3
  EXPECT_FALSE(ring_needs_no_work(base, 4, 32, 28, 5, 4, false));   // 28 is another's
  EXPECT_FALSE(ring_needs_no_work(base, 4, 32, 32, 0, 4, false));   // no such slot
  set_words(base, base + 128, 0);
}

// The yes of a ring question stretches the thread's remembered read of a
// coarse block over the slots the loop reaches only: another thread's write
// of a slot past them, refining the block, must not find this read there
// (loop_range_unread suite pair; asked over the whole ring, the read covered
// all 128 bytes).
TEST(LoopRanges, ARingQuestionStretchesTheReadOverTheReachedSlotsOnly) {
  FastPathOn on;
  BlockCache cache;
  const uintptr_t begin = kRegion + 0x90000, size = 128;
  HeapBlock *block = new_heap_block(cache, begin, size, 0, 0);
  ASSERT_NE(packed_histories(block), nullptr);
  shadow_mark_block(begin, begin + size, block);
  block->state.store(mine(false));
  packed_histories(block)->read = pack_entry(/*stack=*/7, kEmptyLockset, kMe, kNow, 0, 4);
  EXPECT_TRUE(ring_needs_no_work(begin, 4, 32, 0, 15, 4, false));
  History read = block_histories(block).read;
  EXPECT_EQ(read.offset, 0u);
  EXPECT_EQ(read.size, 64u);
  // Wrapping: slots 30 and 31, then 0 and 1; the read stays one interval,
  // so it is not stretched over the slots between (16-29).
  EXPECT_TRUE(ring_needs_no_work(begin, 4, 32, 30, 3, 4, false));
  read = block_histories(block).read;
  EXPECT_LE(read.offset + read.size, 64u + 0u) << "stretched over unread slots";
  shadow_clear(begin, begin + size);
  delete_heap_block(cache, block);
  release_block_cache(cache);
}

}  // namespace
}  // namespace snag::race
