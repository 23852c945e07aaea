// Thin records' shapes: what a thin heap-block record (heap_blocks.h) keeps
// of its block besides the clock of its slots, interned into a 32-bit id.
//
// A thin record's block is at most 64 bytes, made and used by one thread at
// one clock. What it has to remember -- its allocation's stack, the stacks
// of its read and write, where in the block they were, and which thread
// made them -- repeats from block to block: every node a thread's map
// allocates at one call site and first touches at the same two places has
// the same one (thread_local_heavy: ~94,000 live nodes, 42 shapes). Kept
// once in a table and named by its id, it costs the record 4 bytes instead
// of 20, and the record is 32 bytes instead of 48.
//
// Shapes are never freed, like the stack depot's stacks they name: their
// number follows the program's sites (allocation stacks times access stacks
// times offsets) and the clock slots alive at once, not its time, since the
// clock is not part of a shape. The table holds at most kMaxThinShapes; a
// shape it cannot take any more leaves the caller to keep its histories
// another way (a packed record, or the thin record's spill).
#pragma once

#include <stdint.h>

#include "core/platform.h"

namespace snag::race {

struct ThinShape {
  uint32_t alloc_stack;  // the depot id of the block's allocation stack
  uint32_t read_stack;   // as PackedHistory::stack: 0, no read remembered
  uint32_t write_stack;  // 0: no write remembered
  uint32_t thread;       // the slots' clock slot (20 bits), when one holds an access
  uint16_t read_where;   // the read's offset and size - 1, as PackedHistory::where's bits 20-31
  uint16_t write_where;  // the write's
};
static_assert(sizeof(ThinShape) == 20, "no padding: shapes compare as bytes");

SNAG_ALWAYS_INLINE bool same_shape(const ThinShape &a, const ThinShape &b) {
  return __builtin_memcmp(&a, &b, sizeof a) == 0;
}

constexpr uint32_t kThinShapeChunkBits = 12;  // 4,096 shapes (80 KiB) per chunk
constexpr uint32_t kThinShapeChunks = 4096;
constexpr uint32_t kMaxThinShapes = kThinShapeChunks << kThinShapeChunkBits;  // 16 million

namespace detail {
extern ThinShape *g_thin_shape_chunks[kThinShapeChunks];
extern const ThinShape kNoShape;
}

// The shape with id `id` (from intern_thin_shape: ids start at 1). Any id
// reads as some shape: a thread racing with a block's free may read a dead
// record, whose last 8 bytes link it into a free list (its compare-and-swap
// then fails, as for every field of a dead record).
SNAG_ALWAYS_INLINE const ThinShape &thin_shape(uint32_t id) {
  const ThinShape *chunk = __atomic_load_n(
      &detail::g_thin_shape_chunks[(id >> kThinShapeChunkBits) & (kThinShapeChunks - 1)], __ATOMIC_ACQUIRE);
  if (SNAG_UNLIKELY(!chunk)) return detail::kNoShape;
  return chunk[id & ((1u << kThinShapeChunkBits) - 1)];
}

// The id of `shape`, the same for equal shapes; 0 when the table is full.
// A per-thread cache answers most calls without the table's lock.
uint32_t intern_thin_shape(const ThinShape &shape);

// How many distinct shapes exist (for tests).
uint32_t thin_shape_count();

}  // namespace snag::race
