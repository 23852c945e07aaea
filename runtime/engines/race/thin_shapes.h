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

// A shape as three words, as its bytes read (alloc_stack and read_stack,
// write_stack and thread, the two places): built from the fields, so that
// a shape the caller just made in registers (set_thin_slot: a copy of the
// record's shape with a slot changed) is hashed and compared without being
// stored and read back. Read back as 8- and 16-byte loads, a shape whose
// fields were just stored one by one stalled on store forwarding:
// intern_thin_shape took ~4% of task_graph's CPU at 1% of its instructions,
// its samples on those loads (race_bench.txt section 82).
struct ThinShapeWords {
  uint64_t stacks, write_and_thread, places;
};
SNAG_ALWAYS_INLINE ThinShapeWords thin_shape_words(const ThinShape &s) {
  return {s.alloc_stack | uint64_t(s.read_stack) << 32, s.write_stack | uint64_t(s.thread) << 32,
          s.read_where | uint64_t(s.write_where) << 16};
}

// intern_thin_shape's work, given the shape's words (three arguments: a
// struct of 24 bytes would be passed in memory, and stall again).
uint32_t intern_thin_shape_words(uint64_t stacks, uint64_t write_and_thread, uint64_t places);

// The id of `shape`, the same for equal shapes; 0 when the table is full.
// A per-thread cache answers most calls without the table's lock.
SNAG_ALWAYS_INLINE uint32_t intern_thin_shape(const ThinShape &shape) {
  const ThinShapeWords w = thin_shape_words(shape);
  return intern_thin_shape_words(w.stacks, w.write_and_thread, w.places);
}

// How many distinct shapes exist (for tests).
uint32_t thin_shape_count();

}  // namespace snag::race
