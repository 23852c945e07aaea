// Heap-block records (RaceTrack's adaptive granularity, 2.4.2): a block is
// tracked as a whole until it looks racy, then per granule.
#include "engines/race/heap_blocks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace snag::race {
namespace {

constexpr uintptr_t kPages = 0x9000000;  // each test its own region

TEST(HeapBlocks, ANewBlockRecordsItsAllocation) {
  BlockCache cache;
  HeapBlock *b = new_heap_block(cache, kPages, 48, /*stack=*/7, /*thread=*/3);
  EXPECT_EQ(b->type, IndirectType::kBlock);
  EXPECT_EQ(b->start, kPages);
  EXPECT_EQ(block_size(b), 48u);
  EXPECT_EQ(block_allocation_stack(b), 7u);
  EXPECT_EQ(block_allocation_thread(b), 3u);
  EXPECT_FALSE(b->fine.load());
  EXPECT_EQ(b->state.load(), 0u);  // Virgin
}

// One record per live heap block: records are packed at their exact size
// (no allocator header, no rounding up to a size class), and a record
// given back (cache full, or the thread ended) is handed out again before
// a fresh one.
TEST(HeapBlocks, RecordsArePackedAtTheirSizeAndReused) {
  BlockCache cache;
  HeapBlock *first = new_heap_block(cache, kPages + 0x40000, 16, 0, 0);
  HeapBlock *second = new_heap_block(cache, kPages + 0x40020, 16, 0, 0);
  const auto gap = reinterpret_cast<char *>(second) - reinterpret_cast<char *>(first);
  EXPECT_TRUE(gap == ptrdiff_t(kThinHeapBlockBytes) || gap == -ptrdiff_t(kThinHeapBlockBytes))
      << "records " << gap << " bytes apart, " << kThinHeapBlockBytes << " each";
  delete_heap_block(cache, second);  // into the thread's cache
  EXPECT_EQ(new_heap_block(cache, kPages + 0x40040, 32, 0, 0), second);
  delete_heap_block(cache, second);
  release_block_cache(cache);  // back to the shared free records
  BlockCache other;
  HeapBlock *reused = new_heap_block(other, kPages + 0x40060, 8, 5, 2);
  // One of the records given back (the thin slab hands out groups of four:
  // `second` went back with the rest of its group), not a fresh one.
  const auto back = reinterpret_cast<char *>(reused) - reinterpret_cast<char *>(first);
  EXPECT_TRUE(back > 0 && back < ptrdiff_t(4 * kThinHeapBlockBytes) && back % ptrdiff_t(kThinHeapBlockBytes) == 0)
      << "record " << back << " bytes from the first";
  EXPECT_EQ(reused->start, kPages + 0x40060);
  EXPECT_EQ(reused->state.load(), 0u) << "a reused record starts Virgin";
  EXPECT_EQ(block_histories(reused).write.stack, 0u) << "with no history";
  delete_heap_block(other, reused);
  delete_heap_block(other, first);
  release_block_cache(other);
}

// Thin records (32 bytes) share cache lines; a thread taking fresh ones
// from the slab gets a line-aligned group of four, so that records two
// threads allocate at once do not share a line (their state words'
// compare-and-swaps would contend for it).
TEST(HeapBlocks, ThreadsTakeFreshThinRecordsInWholeLines) {
  // The first record of a fresh group: the cache gets the group's other three.
  auto fresh = [](BlockCache &cache, std::vector<HeapBlock *> &taken) -> HeapBlock * {
    for (int i = 0; i < 200000; ++i) {
      HeapBlock *b = new_heap_block(cache, kPages + 0xa0000, 16, 0, 0);
      taken.push_back(b);
      if (cache.lists[kThinSlab].count == 3) return b;
    }
    return nullptr;
  };
  BlockCache a, b;
  std::vector<HeapBlock *> taken_a, taken_b;
  HeapBlock *first_a = fresh(a, taken_a);
  HeapBlock *first_b = fresh(b, taken_b);
  ASSERT_NE(first_a, nullptr) << "no group of fresh records";
  ASSERT_NE(first_b, nullptr);
  const auto at = [](HeapBlock *r) { return reinterpret_cast<uintptr_t>(r); };
  EXPECT_EQ(at(first_a) % 64, 0u);
  EXPECT_EQ(at(first_b) % 64, 0u);
  EXPECT_GE(at(first_a) > at(first_b) ? at(first_a) - at(first_b) : at(first_b) - at(first_a),
            4 * kThinHeapBlockBytes)
      << "the two threads' groups share no line";
  HeapBlock *next_a = new_heap_block(a, kPages + 0xa0000, 16, 0, 0);
  taken_a.push_back(next_a);
  EXPECT_EQ(at(next_a), at(first_a) + kThinHeapBlockBytes) << "the cache hands the group out in order";
  for (HeapBlock *r : taken_a) delete_heap_block(a, r);
  for (HeapBlock *r : taken_b) delete_heap_block(b, r);
  release_block_cache(a);
  release_block_cache(b);
}

// A thin record's allocating thread is its group's (the thread that took
// the group from the slab) and costs the record's own entry nothing: a
// thread's own small blocks leave the per-record array untouched (one
// entry per group is written instead, a quarter of the memory). Another
// thread reusing the record writes its own entry, and the group's thread
// reusing it again clears it.
TEST(HeapBlocks, AThinRecordOfItsGroupsThreadWritesNoEntryOfItsOwn) {
  BlockCache mine, other;
  std::vector<HeapBlock *> taken;
  HeapBlock *fresh = nullptr;
  for (int i = 0; i < 200000 && !fresh; ++i) {
    HeapBlock *b = new_heap_block(mine, kPages + 0xb0000, 16, 0, /*thread=*/21);
    taken.push_back(b);
    if (mine.lists[kThinSlab].count == 3) fresh = b;  // the first of a group this thread took
  }
  ASSERT_NE(fresh, nullptr) << "no group of fresh records";
  HeapBlock *group[kThinGroup] = {fresh};
  for (size_t i = 1; i < kThinGroup; ++i) taken.push_back(group[i] = new_heap_block(mine, kPages + 0xb0000, 16, 0, 21));
  for (HeapBlock *b : group) {
    ASSERT_EQ(thin_group_thread(b), thin_group_thread(fresh)) << "one group";
    EXPECT_EQ(block_allocation_thread(b), 21u);
    EXPECT_EQ(*thin_record_thread(b), 0u) << "no entry of its own written";
  }
  // Another thread reuses one: its own entry names it.
  delete_heap_block(other, group[2]);
  HeapBlock *reused = new_heap_block(other, kPages + 0xb1000, 24, 0, /*thread=*/0);
  ASSERT_EQ(reused, group[2]);
  EXPECT_EQ(block_allocation_thread(reused), 0u) << "thread 0 is a thread";
  EXPECT_EQ(block_allocation_thread(group[1]), 21u) << "its neighbours keep the group's";
  // The group's thread again: the entry is cleared, the thread its own.
  delete_heap_block(mine, reused);
  HeapBlock *back = new_heap_block(mine, kPages + 0xb2000, 24, 0, 21);
  ASSERT_EQ(back, group[2]);
  EXPECT_EQ(block_allocation_thread(back), 21u);
  EXPECT_EQ(*thin_record_thread(back), 0u);
  // A block of a packed record keeps its thread in the record.
  HeapBlock *packed = new_heap_block(mine, kPages + 0xb3000, 200, 0, 22);
  EXPECT_EQ(block_allocation_thread(packed), 22u);
  delete_heap_block(mine, packed);
  for (HeapBlock *b : taken) delete_heap_block(mine, b);
  release_block_cache(mine);
  release_block_cache(other);
}

TEST(HeapBlocks, FoundThroughTheShadowWhileCoarse) {
  BlockCache cache;
  // One block spanning whole pages, one inside a page.
  const uintptr_t big = kPages + 0x10000, small = kPages + 0x20010;
  HeapBlock *whole = new_heap_block(cache, big, 3 * kPageSize, 0, 0);
  HeapBlock *part = new_heap_block(cache, small, 40, 0, 1);
  shadow_mark_block(big, big + 3 * kPageSize, whole);
  shadow_mark_block(small, small + 40, part);
  EXPECT_EQ(find_heap_block(big), whole);
  EXPECT_EQ(find_heap_block(big + 2 * kPageSize + 100), whole);
  EXPECT_EQ(find_heap_block(small), part);
  EXPECT_EQ(find_heap_block(small + 39), part);
  EXPECT_EQ(find_heap_block(small + 40), nullptr);
  EXPECT_EQ(find_heap_block(small - 8), nullptr);
  EXPECT_EQ(find_heap_block(kPages + 0x30000), nullptr);
}

TEST(HeapBlocks, ANewBlockInsideAStaleWholePageBlockIsTheOneFound) {
  // A large block whose free the runtime did not see (freed while the
  // runtime itself was working, or by libc internally) leaves its pages
  // pointing at its record. A small block allocated there later must be the
  // one found: with the stale block found first, free() measured the new
  // block by its usable size and checked the rest against the dead block's
  // state, a false race with whoever last touched the old block.
  BlockCache cache;
  const uintptr_t big = kPages + 0x80000, small = big + kPageSize + 16;
  HeapBlock *stale = new_heap_block(cache, big, 3 * kPageSize, 0, 0);
  HeapBlock *fresh = new_heap_block(cache, small, 40, 0, 1);
  shadow_mark_block(big, big + 3 * kPageSize, stale);
  shadow_mark_block(small, small + 40, fresh);  // no free of `stale` in between
  EXPECT_EQ(find_heap_block(small), fresh);
  EXPECT_EQ(find_heap_block(small + 64), nullptr) << "the rest of the page belongs to no live block";
}

TEST(HeapBlocks, GoesFineOnceAndStaysFindable) {
  BlockCache cache;
  const uintptr_t start = kPages + 0x40008;
  HeapBlock *b = new_heap_block(cache, start, 64, 0, 0);
  shadow_mark_block(start, start + 64, b);
  EXPECT_TRUE(make_block_fine(b));
  EXPECT_FALSE(make_block_fine(b));  // only the first caller switches it
  EXPECT_TRUE(b->fine.load());
  // Its granules read as Virgin to the access path from now on (it checks
  // `fine`); the list of fine blocks still finds it.
  EXPECT_EQ(find_heap_block(start + 63), b);
  EXPECT_EQ(find_heap_block(start + 64), nullptr);
}

// Many fine blocks at once (a racy linked structure makes every node fine),
// given back in an order that empties slots in the middle of probe runs:
// each one left is still found by its start and inside, each one gone is
// not, and their frees do not walk the others (fine_blocks.cpp).
TEST(HeapBlocks, ManyFineBlocksStayFindableAsTheyGoInAnyOrder) {
  BlockCache cache;
  const uintptr_t base = kPages + 0x100000;
  constexpr int kBlocks = 3000;
  std::vector<HeapBlock *> blocks;
  for (int i = 0; i < kBlocks; ++i) {
    const uintptr_t start = base + uintptr_t(i) * 32;
    HeapBlock *b = new_heap_block(cache, start, 24, 0, 0);
    shadow_mark_block(start, start + 24, b);
    ASSERT_TRUE(make_block_fine(b));
    // Its granules' own states from now on: no word names the block.
    shadow_clear(start, start + 24);
    blocks.push_back(b);
  }
  std::vector<bool> gone(kBlocks, false);
  for (int i = 0; i < kBlocks; i += 3) {
    drop_block_refinement(blocks[i]);
    gone[i] = true;
  }
  for (int i = kBlocks - 2; i >= 0; i -= 7)
    if (!gone[i]) {
      drop_block_refinement(blocks[i]);
      gone[i] = true;
    }
  for (int i = 0; i < kBlocks; ++i) {
    const uintptr_t start = base + uintptr_t(i) * 32;
    EXPECT_EQ(find_heap_block(start), gone[i] ? nullptr : blocks[i]) << "block " << i;
    if (!gone[i]) EXPECT_EQ(find_heap_block(start + 20), blocks[i]) << "inside block " << i;
  }
  for (HeapBlock *b : blocks) delete_heap_block(cache, b);
  EXPECT_EQ(find_heap_block(base + 32 * 5), nullptr);
  release_block_cache(cache);
}

TEST(HeapBlocks, DeletedRecordsAreRecycledThroughTheThreadCache) {
  BlockCache cache;
  const uintptr_t start = kPages + 0x50000;
  HeapBlock *b = new_heap_block(cache, start, 16, 0, 0);
  // A fresh record comes with the rest of its group in the cache.
  const uint32_t cached = cache.lists[kThinSlab].count;
  shadow_mark_block(start, start + 16, b);
  make_block_fine(b);
  shadow_clear(start, start + 16);
  delete_heap_block(cache, b);
  EXPECT_EQ(cache.lists[kThinSlab].count, cached + 1);
  EXPECT_EQ(find_heap_block(start), nullptr);  // off the fine list
  HeapBlock *again = new_heap_block(cache, start + 0x100, 24, 5, 2);
  EXPECT_EQ(again, b);
  EXPECT_EQ(cache.lists[kThinSlab].count, cached);
  EXPECT_FALSE(again->fine.load());  // a fresh record
  EXPECT_EQ(block_size(again), 24u);
  EXPECT_EQ(block_allocation_thread(again), 2u);
}

TEST(HeapBlocks, ALargeBlockIsCutIntoChunksThatInheritTheAccessesThatTouchedThem) {
  BlockCache cache;
  // Not chunk-aligned: the first chunk is shorter, the chunks' edges are.
  const uintptr_t start = kPages + 0x400000 + 16, size = 3 * kChunkSize;
  HeapBlock *b = new_heap_block(cache, start, size, 0, 0);
  shadow_mark_block(start, start + size, b);
  ASSERT_TRUE(cut_into_chunks_first(b));
  // Thread 5 wrote 32 bytes across the first chunk edge, in its epoch 9.
  const uint64_t owner = exclusive_word(Kind::kExclusive0, 5, 9, /*wrote=*/true);
  b->state.store(owner);
  History write{};
  write.stack = 77;
  write.thread = 5;
  write.clock = 9;
  write.offset = static_cast<uint32_t>(kChunkSize - 16 - 8);  // 8 bytes before the edge
  write.size = 32;
  write.write = 1;
  set_block_history(b, &Histories::write, write);
  EXPECT_TRUE(cut_block_into_chunks(b, &write));
  EXPECT_FALSE(cut_block_into_chunks(b, &write));  // once
  EXPECT_FALSE(make_block_fine(b));
  ASSERT_EQ(block_chunk_count(b), 4u);
  HeapBlock **chunks = block_chunks(b);
  EXPECT_EQ(chunks[0]->start, start);
  EXPECT_EQ(block_size(chunks[0]), kChunkSize - 16);
  EXPECT_EQ(chunks[1]->start, (start & ~(kChunkSize - 1)) + kChunkSize);
  EXPECT_EQ(block_end(chunks[3]), start + size);
  // Both chunks the write touched: the owner's word and the clipped write.
  EXPECT_EQ(chunks[0]->state.load(), owner);
  EXPECT_EQ(chunks[1]->state.load(), owner);
  EXPECT_EQ(block_histories(chunks[0]).write.offset, kChunkSize - 16 - 8);
  EXPECT_EQ(block_histories(chunks[0]).write.size, 8u);
  EXPECT_EQ(block_histories(chunks[1]).write.offset, 0u);
  EXPECT_EQ(block_histories(chunks[1]).write.size, 24u);
  EXPECT_EQ(block_histories(chunks[1]).write.stack, 77u);
  // The others start Virgin, with nothing remembered.
  EXPECT_EQ(chunks[2]->state.load(), 0u);
  EXPECT_EQ(block_histories(chunks[2]).write.stack, 0u);
  // The allocation is still what is found; the chunk tracks the address.
  EXPECT_EQ(find_heap_block(start + 2 * kChunkSize), b);
  EXPECT_EQ(find_tracking_block(start + 2 * kChunkSize), chunks[2]);
  EXPECT_EQ(allocation_of(chunks[2]), b);
  // A chunk goes fine on its own.
  EXPECT_TRUE(make_block_fine(chunks[2]));
  EXPECT_FALSE(chunks[1]->fine.load());
  EXPECT_EQ(find_heap_block(start + 2 * kChunkSize + 8), b);
  shadow_clear(start, start + size);
  delete_heap_block(cache, b);
  EXPECT_EQ(block_chunks(b), nullptr);
  EXPECT_EQ(find_heap_block(start + 8), nullptr);
}

// A record keeps only what every live block needs; what a refined block
// needs (its place in the fine list, its chunks, a chunk's block) lives in
// a side record. A report names the allocation from the record (bounds,
// allocating thread and stack, race_report.cpp): none of that may be lost
// when the block goes fine, when it is cut, or when its record is reused
// (a free record's link overlays stack_or_shape).
TEST(HeapBlocks, ARefinedBlockKeepsItsBoundsAndAllocationStack) {
  BlockCache cache;
  const uintptr_t start = kPages + 0x60010;
  HeapBlock *b = new_heap_block(cache, start, 40, /*stack=*/1234, /*thread=*/6);
  shadow_mark_block(start, start + 40, b);
  EXPECT_EQ(block_refinement_index(b), 0u) << "a coarse block has no side record";
  ASSERT_TRUE(make_block_fine(b));
  EXPECT_NE(refinement_of(b), nullptr);
  HeapBlock *found = find_heap_block(start + 32);
  ASSERT_EQ(found, b);
  EXPECT_EQ(allocation_of(found), b);
  EXPECT_EQ(found->start, start);
  EXPECT_EQ(block_size(found), 40u);
  EXPECT_EQ(block_allocation_stack(found), 1234u);
  EXPECT_EQ(block_allocation_thread(found), 6u);
  shadow_clear(start, start + 40);
  delete_heap_block(cache, b);
  EXPECT_FALSE(b->fine.load()) << "a dead record is not fine";
  // Another block on the same record: its own stack, no side record.
  HeapBlock *again = new_heap_block(cache, start + 0x100, 24, 4321, 7);
  ASSERT_EQ(again, b);
  EXPECT_EQ(block_allocation_stack(again), 4321u);
  EXPECT_EQ(block_refinement_index(again), 0u);
  EXPECT_EQ(refinement_of(again), nullptr);
  delete_heap_block(cache, again);
  release_block_cache(cache);
}

TEST(HeapBlocks, AChunkReportsItsAllocationsBoundsAndStack) {
  BlockCache cache;
  const uintptr_t start = kPages + 0x800000 + 32, size = 2 * kChunkSize;
  HeapBlock *b = new_heap_block(cache, start, size, /*stack=*/555, /*thread=*/4);
  shadow_mark_block(start, start + size, b);
  ASSERT_TRUE(cut_block_into_chunks(b, nullptr));
  HeapBlock *chunk = find_tracking_block(start + kChunkSize + 64);
  ASSERT_NE(chunk, nullptr);
  ASSERT_NE(chunk, b);
  EXPECT_TRUE(chunk->is_chunk);
  HeapBlock *allocation = allocation_of(chunk);
  ASSERT_EQ(allocation, b);
  EXPECT_EQ(allocation->start, start);
  EXPECT_EQ(block_size(allocation), size);
  EXPECT_EQ(block_allocation_stack(allocation), 555u);
  EXPECT_EQ(block_allocation_thread(allocation), 4u);
  EXPECT_EQ(block_allocation_stack(chunk), 555u);
  shadow_clear(start, start + size);
  delete_heap_block(cache, b);
  EXPECT_EQ(find_heap_block(start + 8), nullptr);
  EXPECT_FALSE(chunk->is_chunk) << "a chunk given back is a plain free record";
  release_block_cache(cache);
}

TEST(HeapBlocks, TheCacheIsBounded) {
  BlockCache cache;
  HeapBlock *blocks[BlockCache::kCapacity + 2];
  for (auto &b : blocks) b = new_heap_block(cache, 0, 8, 0, 0);
  for (auto &b : blocks) delete_heap_block(cache, b);
  EXPECT_EQ(cache.lists[kThinSlab].count, BlockCache::kCapacity);
}

// Histories are packed in the record of a block of at most 1 KiB (88
// bytes; thread_local_heavy keeps 80,000 such records for its map nodes,
// lock_hash_map 4,096 for its bucket vectors), wide in a larger block's
// (112). A record keeps its kind when reused: a freed small block's record
// goes to the next small block.
TEST(HeapBlocks, SmallBlocksGetPackedRecordsLargerOnesWide) {
  BlockCache cache;
  HeapBlock *small = new_heap_block(cache, kPages + 0x60000, 1024, 0, 0);
  HeapBlock *large = new_heap_block(cache, kPages + 0x61000, 1025, 0, 0);
  EXPECT_EQ(record_form(small), RecordForm::kPacked);
  EXPECT_EQ(wide_histories(small), nullptr);
  EXPECT_EQ(record_form(large), RecordForm::kWide);
  EXPECT_EQ(packed_histories(large), nullptr);
  History w{};
  w.stack = 9;
  w.thread = 2;
  w.clock = 4;
  w.offset = 1000;  // past what 6 bits held
  w.size = 24;
  w.write = 1;
  set_block_history(small, &Histories::write, w);
  w.offset = 4000;
  w.size = 96;
  set_block_history(large, &Histories::write, w);
  EXPECT_EQ(block_histories(small).write.offset, 1000u);
  EXPECT_EQ(block_histories(small).write.size, 24u);
  EXPECT_EQ(block_histories(small).write.stack, 9u);
  EXPECT_EQ(block_histories(small).read.stack, 0u);
  EXPECT_EQ(block_histories(large).write.offset, 4000u);
  EXPECT_EQ(block_histories(large).write.size, 96u);
  delete_heap_block(cache, small);
  delete_heap_block(cache, large);
  EXPECT_EQ(new_heap_block(cache, kPages + 0x62000, 4096, 0, 0), large) << "a wide record for a large block";
  HeapBlock *again = new_heap_block(cache, kPages + 0x63000, 65, 0, 0);
  EXPECT_EQ(again, small) << "the packed record for a small one";
  EXPECT_EQ(block_histories(again).write.stack, 0u) << "with no history";
  delete_heap_block(cache, again);
  delete_heap_block(cache, large);
  release_block_cache(cache);
}

// A block of at most 64 bytes gets a thin record (32 bytes: its read and
// write by one thread at one clock, without a lockset word); what does not
// fit -- a second thread's read beside the first's, an access under a lock
// -- spills the record: its histories move unchanged to the spill, which
// every later access uses, and the record is thin again for its next block.
TEST(HeapBlocks, SmallBlocksGetThinRecordsThatSpillWhatDoesNotFit) {
  BlockCache cache;
  HeapBlock *thin = new_heap_block(cache, kPages + 0x70000, 64, 0, 0);
  HeapBlock *packed = new_heap_block(cache, kPages + 0x70040, 65, 0, 0);
  EXPECT_EQ(record_form(thin), RecordForm::kThin);
  EXPECT_EQ(record_form(packed), RecordForm::kPacked);
  EXPECT_EQ(packed_histories(thin), nullptr);
  History r{};
  r.stack = 11;
  r.thread = 0xfffff;  // the last id 20 bits hold
  r.clock = 0xfffffff0u;  // a thin record keeps a whole 32-bit clock
  r.offset = 63;
  r.size = 1;
  History w = r;
  w.stack = 12;
  w.offset = 0;
  w.size = 64;
  w.write = 1;
  set_block_history(thin, &Histories::read, r);
  set_block_history(thin, &Histories::write, w);
  EXPECT_EQ(record_form(thin), RecordForm::kThin) << "no lock, one thread: fits";
  auto same = [](const History &x, const History &y) {
    return x.stack == y.stack && x.lockset == y.lockset && x.thread == y.thread && x.clock == y.clock &&
           x.offset == y.offset && x.size == y.size && x.write == y.write;
  };
  Histories before = block_histories(thin);
  EXPECT_TRUE(same(before.read, r));
  EXPECT_TRUE(same(before.write, w));
  EXPECT_EQ(before.other_read.stack, 0u);
  EXPECT_EQ(block_slot_key(thin, false, 0xfffff).stack, 11u);
  EXPECT_EQ(block_slot_key(thin, false, 0xfffff).clock, 0xfffffff0u);
  EXPECT_EQ(block_slot_key(thin, true, 3).thread, 0xfffffu);
  EXPECT_EQ(block_slot_key(thin, false, 3).stack, 0u) << "another thread's read would go to other_read";
  History o = r;
  o.stack = 13;
  o.thread = 3;
  set_block_history(thin, &Histories::other_read, o);
  EXPECT_EQ(record_form(thin), RecordForm::kThinSpilled);
  PackedHistories *spill = packed_histories(thin);
  ASSERT_NE(spill, nullptr);
  EXPECT_TRUE(reinterpret_cast<char *>(spill) < reinterpret_cast<char *>(thin) ||
              reinterpret_cast<char *>(spill) >= reinterpret_cast<char *>(thin) + kThinHeapBlockBytes)
      << "the spill is outside the 32-byte record";
  Histories after = block_histories(thin);
  EXPECT_TRUE(same(after.read, r));
  EXPECT_TRUE(same(after.write, w));
  EXPECT_TRUE(same(after.other_read, o));
  EXPECT_EQ(block_slot_key(thin, false, 3).stack, 13u);

  // A locked write spills at once, and keeps its lockset.
  HeapBlock *locked = new_heap_block(cache, kPages + 0x70100, 16, 0, 0);
  set_block_history(locked, &Histories::read, r);
  History lw = w;
  lw.size = 16;
  lw.lockset = 5;
  set_block_slot(locked, true, lw.thread, pack_history(lw));
  EXPECT_EQ(record_form(locked), RecordForm::kThinSpilled);
  EXPECT_TRUE(same(block_histories(locked).write, lw));
  EXPECT_TRUE(same(block_histories(locked).read, r));
  EXPECT_NE(packed_histories(locked), packed_histories(thin)) << "each record its own spill";

  delete_heap_block(cache, locked);
  HeapBlock *again = new_heap_block(cache, kPages + 0x70200, 8, 0, 0);
  EXPECT_EQ(again, locked);
  EXPECT_EQ(record_form(again), RecordForm::kThin) << "thin again for its next block";
  EXPECT_EQ(block_histories(again).write.stack, 0u);
  EXPECT_EQ(block_histories(again).read.stack, 0u);
  delete_heap_block(cache, again);
  delete_heap_block(cache, thin);
  delete_heap_block(cache, packed);
  release_block_cache(cache);
}

// A thin record is 32 bytes: its histories but their clock, and its
// allocation's stack, are one interned shape (thin_shapes.h) that blocks
// made and used alike share, its allocating thread sits in its slab's side
// array. Each block still reads back its own allocation, clock and
// histories, before and after a spill, and again once the record is reused.
// A shape's words (thin_shapes.h: what it is hashed and cached as, built
// from its fields so that a shape made in registers is not stored and read
// back) are its bytes as they lie in memory, the form the table compares.
TEST(ThinShapes, AShapesWordsAreItsBytes) {
  const ThinShape s{0x11223344, 0x55667788, 0x99aabbcc, 0x000ddeef, 0x0123, 0x0fed};
  uint64_t bytes[3] = {};
  __builtin_memcpy(bytes, &s, sizeof s);
  const ThinShapeWords w = thin_shape_words(s);
  EXPECT_EQ(w.stacks, bytes[0]);
  EXPECT_EQ(w.write_and_thread, bytes[1]);
  EXPECT_EQ(w.places, bytes[2]);
}

// More shapes than the per-thread cache holds, asked again in other orders:
// each keeps its one id, and the id names that shape.
TEST(ThinShapes, ManyShapesKeepTheirIdsThroughTheThreadsCache) {
  constexpr uint32_t kShapes = 700;
  auto shape = [](uint32_t i) {
    return ThinShape{900000 + i % 7, i % 3 ? 910000 + i : 0, 920000 + i / 7, i % 5, static_cast<uint16_t>(i & 0xfff),
                     static_cast<uint16_t>((i * 7) & 0xfff)};
  };
  std::vector<uint32_t> ids(kShapes);
  for (uint32_t i = 0; i < kShapes; ++i) {
    ids[i] = intern_thin_shape(shape(i));
    ASSERT_NE(ids[i], 0u);
    for (uint32_t j = 0; j < i; j += 37) ASSERT_NE(ids[i], ids[j]) << i << " " << j;
  }
  for (uint32_t round = 0; round < 3; ++round)
    for (uint32_t k = 0; k < kShapes; ++k) {
      const uint32_t i = round == 0 ? kShapes - 1 - k : (k * 101 + round) % kShapes;
      ASSERT_EQ(intern_thin_shape(shape(i)), ids[i]) << "shape " << i << " round " << round;
      ASSERT_TRUE(same_shape(thin_shape(ids[i]), shape(i)));
    }
}

TEST(HeapBlocks, ThinRecordsAre32BytesAndBlocksUsedAlikeShareOneShape) {
  BlockCache cache;
  constexpr int kBlocks = 64;
  HeapBlock *blocks[kBlocks];
  for (int i = 0; i < kBlocks; ++i) {
    blocks[i] = new_heap_block(cache, kPages + 0x90000 + 0x20 * i, 16, /*stack=*/7000, /*thread=*/3 + i % 2);
    ASSERT_EQ(record_form(blocks[i]), RecordForm::kThin);
  }
  // Records come in groups side by side, 32 bytes each; which group and in
  // which order depends on what earlier tests freed, so look at the closest two.
  std::vector<uintptr_t> at;
  for (HeapBlock *b : blocks) at.push_back(reinterpret_cast<uintptr_t>(b));
  std::sort(at.begin(), at.end());
  uintptr_t closest = UINTPTR_MAX;
  for (size_t i = 1; i < at.size(); ++i) closest = std::min(closest, at[i] - at[i - 1]);
  EXPECT_EQ(closest, 32u) << "a group's records side by side, 32 bytes each";
  auto same = [](const History &x, const History &y) {
    return x.stack == y.stack && x.lockset == y.lockset && x.thread == y.thread && x.clock == y.clock &&
           x.offset == y.offset && x.size == y.size && x.write == y.write;
  };
  History w{};
  w.stack = 31;
  w.thread = 5;
  w.offset = 0;
  w.size = 16;
  w.write = 1;
  History r = w;
  r.stack = 32;
  r.offset = 8;
  r.size = 8;
  r.write = 0;
  const uint32_t shapes_before = thin_shape_count();
  for (int i = 0; i < kBlocks; ++i) {
    w.clock = r.clock = 100 + i;  // every block its own clock
    set_block_history(blocks[i], &Histories::write, w);
    set_block_history(blocks[i], &Histories::read, r);
  }
  EXPECT_LE(thin_shape_count() - shapes_before, 2u) << "one shape for the write, one for both: shared";
  for (int i = 0; i < kBlocks; ++i) {
    EXPECT_EQ(record_form(blocks[i]), RecordForm::kThin);
    EXPECT_EQ(block_allocation_stack(blocks[i]), 7000u);
    EXPECT_EQ(block_allocation_thread(blocks[i]), Tid(3 + i % 2));
    w.clock = r.clock = 100 + i;
    EXPECT_TRUE(same(block_histories(blocks[i]).write, w)) << "block " << i;
    EXPECT_TRUE(same(block_histories(blocks[i]).read, r)) << "block " << i;
  }
  // Another thread's read spills one: everything it held stays.
  History o = r;
  o.thread = 6;
  o.clock = 7;
  set_block_slot(blocks[5], false, o.thread, pack_history(o));
  EXPECT_EQ(record_form(blocks[5]), RecordForm::kThinSpilled);
  w.clock = r.clock = 105;
  EXPECT_TRUE(same(block_histories(blocks[5]).write, w));
  EXPECT_TRUE(same(block_histories(blocks[5]).read, r));
  EXPECT_TRUE(same(block_histories(blocks[5]).other_read, o));
  EXPECT_EQ(block_allocation_stack(blocks[5]), 7000u) << "a spilled record keeps its allocation";
  EXPECT_EQ(block_allocation_thread(blocks[5]), 4u);
  EXPECT_EQ(record_form(blocks[4]), RecordForm::kThin) << "its neighbours untouched";
  // Reused, thin again, with the new block's allocation and no history.
  delete_heap_block(cache, blocks[5]);
  HeapBlock *again = new_heap_block(cache, kPages + 0x91000, 8, 7001, 9);
  EXPECT_EQ(again, blocks[5]);
  EXPECT_EQ(record_form(again), RecordForm::kThin);
  EXPECT_EQ(block_allocation_stack(again), 7001u);
  EXPECT_EQ(block_allocation_thread(again), 9u);
  EXPECT_EQ(block_histories(again).write.stack, 0u);
  EXPECT_EQ(block_histories(again).read.stack, 0u);
  blocks[5] = again;
  for (HeapBlock *b : blocks) delete_heap_block(cache, b);
  release_block_cache(cache);
}

// A thin record keeps one thread and one clock for its two slots: an
// access by another thread, or by the same thread at another clock, beside
// the other slot's spills the record, and every slot comes back exactly as
// it was remembered (the report's previous side). A slot written while the
// other is empty takes its own thread and clock, which may be any clock.
TEST(HeapBlocks, AThinRecordHoldsOneThreadAndOneClock) {
  BlockCache cache;
  auto same = [](const History &x, const History &y) {
    return x.stack == y.stack && x.lockset == y.lockset && x.thread == y.thread && x.clock == y.clock &&
           x.offset == y.offset && x.size == y.size && x.write == y.write;
  };
  History w{};
  w.stack = 21;
  w.thread = 4;
  w.clock = 5;
  w.offset = 8;
  w.size = 8;
  w.write = 1;

  // Another thread's read beside the write (a hand-off): spilled.
  HeapBlock *handed = new_heap_block(cache, kPages + 0x80000, 32, 0, /*thread=*/9);
  set_block_slot(handed, true, w.thread, pack_history(w));
  History r{};
  r.stack = 22;
  r.thread = 6;
  r.clock = 5;
  r.offset = 0;
  r.size = 4;
  set_block_slot(handed, false, r.thread, pack_history(r));
  EXPECT_EQ(record_form(handed), RecordForm::kThinSpilled);
  EXPECT_TRUE(same(block_histories(handed).write, w));
  EXPECT_TRUE(same(block_histories(handed).read, r));

  // The same thread's read at a later clock: spilled, both clocks kept.
  HeapBlock *later = new_heap_block(cache, kPages + 0x80040, 32, 0, 4);
  set_block_slot(later, true, w.thread, pack_history(w));
  History r2 = r;
  r2.thread = w.thread;
  r2.clock = w.clock + 1;
  set_block_slot(later, false, r2.thread, pack_history(r2));
  EXPECT_EQ(record_form(later), RecordForm::kThinSpilled);
  EXPECT_TRUE(same(block_histories(later).write, w));
  EXPECT_TRUE(same(block_histories(later).read, r2));

  // The same thread at the same clock: thin; a new write while the read
  // slot is empty takes the new clock.
  HeapBlock *kept = new_heap_block(cache, kPages + 0x80080, 32, 0, 4);
  set_block_slot(kept, true, w.thread, pack_history(w));
  History w2 = w;
  w2.clock = 77;
  w2.offset = 16;
  set_block_slot(kept, true, w2.thread, pack_history(w2));
  History r3 = r;
  r3.thread = w.thread;
  r3.clock = 77;
  set_block_slot(kept, false, r3.thread, pack_history(r3));
  EXPECT_EQ(record_form(kept), RecordForm::kThin);
  EXPECT_TRUE(same(block_histories(kept).write, w2));
  EXPECT_TRUE(same(block_histories(kept).read, r3));

  // A clock beyond 20 bits (the limit while thin records kept theirs
  // beside the thread in 40 bits): thin, the clock whole.
  HeapBlock *late = new_heap_block(cache, kPages + 0x800c0, 32, 0, 4);
  History w3 = w;
  w3.clock = 1u << 20;
  set_block_slot(late, true, w3.thread, pack_history(w3));
  EXPECT_EQ(record_form(late), RecordForm::kThin);
  EXPECT_TRUE(same(block_histories(late).write, w3));

  for (HeapBlock *b : {handed, later, kept, late}) delete_heap_block(cache, b);
  release_block_cache(cache);
}

// A record's header keeps 32 bits of its block's size (where the inlined
// check reads it); a wide record keeps the rest, so a block of 4 GiB or
// more has its whole size, and the fast path's range test does not take
// the block's whole range (the hooks answer it). (The range its low bits
// give, a stale remembered range of an earlier block at the same start,
// lies inside the block: answering from the record is right there.)
TEST(HeapBlocks, ABlockOf4GiBOrMoreKeepsItsSizeAndIsNotAnsweredByTheFastPath) {
  BlockCache cache;
  const uintptr_t start = uintptr_t(0x7e0000000000);  // a record only: no memory, no shadow
  const uintptr_t size = (uintptr_t(5) << 30) + 24;
  HeapBlock *huge = new_heap_block(cache, start, size, 0, 0);
  EXPECT_EQ(record_form(huge), RecordForm::kWide);
  EXPECT_EQ(block_size(huge), size);
  EXPECT_EQ(block_end(huge), start + size);
  EXPECT_FALSE(fast_path_range_is(huge, start, start + size));
  delete_heap_block(cache, huge);
  HeapBlock *small = new_heap_block(cache, start, 2000, 0, 0);
  EXPECT_EQ(small, huge) << "the wide record again";
  EXPECT_EQ(block_size(small), 2000u) << "no high bits left from the last block";
  EXPECT_TRUE(fast_path_range_is(small, start, start + 2000));
  delete_heap_block(cache, small);
  release_block_cache(cache);
}

}  // namespace
}  // namespace snag::race
