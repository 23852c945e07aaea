// The set of fine heap blocks (fine_blocks.h): an open-addressing table keyed
// by the block's start, linear probing, deletion by shifting back (no
// tombstones), sized to stay between 1/8 and 1/2 full so that its memory
// follows the live fine blocks.
#include "engines/race/fine_blocks.h"

#include "core/internal_alloc.h"
#include "engines/race/heap_blocks.h"

namespace snag::race {

namespace {

constexpr uint32_t kSmallest = 64;

HeapBlock **g_table;    // g_capacity slots, null: empty
uint32_t g_capacity;    // a power of two, or 0 before the first block
uint32_t g_count;

uint32_t slot_of(uintptr_t start, uint32_t capacity) {
  return static_cast<uint32_t>(((start >> 4) * 0x9e3779b97f4a7c15ull) >> 32) & (capacity - 1);
}
uint32_t home_of(uintptr_t start) { return slot_of(start, g_capacity); }

void place(HeapBlock **table, uint32_t capacity, HeapBlock *block) {
  uint32_t i = slot_of(block->start, capacity);
  while (table[i]) i = (i + 1) & (capacity - 1);
  table[i] = block;
}

void resize(uint32_t capacity) {
  HeapBlock **table = internal_new_array<HeapBlock *>(capacity);
  for (uint32_t i = 0; i < g_capacity; ++i)
    if (g_table[i]) place(table, capacity, g_table[i]);
  internal_free(g_table);
  g_table = table;
  g_capacity = capacity;
}

}  // namespace

void fine_blocks_add(HeapBlock *block) {
  if (2 * (g_count + 1) > g_capacity) resize(g_capacity ? 2 * g_capacity : kSmallest);
  place(g_table, g_capacity, block);
  ++g_count;
}

void fine_blocks_remove(HeapBlock *block) {
  if (!g_count) return;
  const uint32_t mask = g_capacity - 1;
  uint32_t i = home_of(block->start);
  while (g_table[i] != block) {
    if (!g_table[i]) return;
    i = (i + 1) & mask;
  }
  // Shift back each later entry of the run that may sit in the hole: one
  // whose home is not cyclically in (hole, its slot].
  uint32_t hole = i;
  for (uint32_t j = (i + 1) & mask; g_table[j]; j = (j + 1) & mask) {
    const uint32_t home = home_of(g_table[j]->start);
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      g_table[hole] = g_table[j];
      hole = j;
    }
  }
  g_table[hole] = nullptr;
  --g_count;
  if (g_capacity > kSmallest && 8 * g_count < g_capacity) resize(g_capacity / 2);
}

HeapBlock *fine_blocks_find(uintptr_t addr) {
  if (!g_count) return nullptr;
  const uint32_t mask = g_capacity - 1;
  for (uint32_t i = home_of(addr); g_table[i]; i = (i + 1) & mask)
    if (g_table[i]->start == addr) return g_table[i];
  for (uint32_t i = 0; i < g_capacity; ++i)
    if (HeapBlock *b = g_table[i]; b && addr >= b->start && addr < block_end(b)) return b;
  return nullptr;
}

}  // namespace snag::race
