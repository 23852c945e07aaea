// Heap blocks and split granules: the two things an Indirect state word
// points to.
//
// Adaptive granularity (RaceTrack 2.4.2): a heap block starts with one state
// for the whole block; every granule's shadow word points at the block. When
// the block's state would report, the block turns fine: its granules get
// states of their own. A granule whose accesses by different threads touch
// different bytes (two fields in one 8-byte word) splits once more, into one
// state per byte.
#pragma once

#include <atomic>
#include <stdint.h>

#include "engines/race/shadow.h"
#include "engines/race/state.h"

namespace snag::race {

struct HeapBlock {
  // The fast path reads these three together: keep them in the first bytes.
  IndirectType type = IndirectType::kBlock;
  std::atomic<bool> fine{false};
  std::atomic<uint64_t> state{0};
  Histories history{};
  uintptr_t start = 0;
  uintptr_t size = 0;
  StackId alloc_stack = 0;
  Tid alloc_thread = 0;
  HeapBlock *next_fine = nullptr;  // in the list of fine blocks
};

struct SplitGranule {
  IndirectType type = IndirectType::kSplit;
  std::atomic<uint64_t> state[kGranule];
  Histories history[kGranule];
};

SNAG_ALWAYS_INLINE IndirectType indirect_type(uint64_t word) {
  return *static_cast<const IndirectType *>(pointer_of(word));
}

// The heap block a state word points to (an Indirect block word), else null.
SNAG_ALWAYS_INLINE HeapBlock *block_of_word(uint64_t w) {
  return kind_of(w) == Kind::kIndirect && indirect_type(w) == IndirectType::kBlock
             ? static_cast<HeapBlock *>(pointer_of(w))
             : nullptr;
}

// The block the state word `w` of granule `g` stands for: the block it
// points to, or for a Virgin word the block its whole page points at until
// an access writes the Indirect word (shadow.h). Null otherwise.
SNAG_ALWAYS_INLINE HeapBlock *block_of_granule(uint64_t w, uintptr_t g) {
  if (HeapBlock *block = block_of_word(w)) return block;
  if (w != 0) return nullptr;
  ShadowPage *page = find_shadow_page(g);
  return page ? page->block.load(std::memory_order_acquire) : nullptr;
}

// A thread's cache of block records, so that malloc/free pairs do not all
// meet at the runtime allocator's lock.
struct BlockCache {
  static constexpr uint32_t kCapacity = 256;
  HeapBlock *head = nullptr;
  uint32_t count = 0;
};

HeapBlock *new_heap_block(BlockCache &cache, uintptr_t start, uintptr_t size, StackId stack,
                          Tid thread);
// Switches a block to per-granule states (once; later calls do nothing).
// Returns true for the caller that made the switch.
bool make_block_fine(HeapBlock *block);
// The block holding `addr`: from the shadow word when coarse, from the list
// of fine blocks otherwise. Null for memory that is not a live heap block.
HeapBlock *find_heap_block(uintptr_t addr);
void delete_heap_block(BlockCache &cache, HeapBlock *block);
// Frees the records a thread kept for reuse (the thread has ended).
void release_block_cache(BlockCache &cache);

}  // namespace snag::race
