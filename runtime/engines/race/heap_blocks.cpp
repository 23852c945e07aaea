#include "engines/race/heap_blocks.h"

#include <new>

#include "core/internal_alloc.h"
#include "core/spinlock.h"

namespace snag::race {

namespace {
SpinLock g_fine_lock;
HeapBlock *g_fine_blocks;  // few: only blocks that raised suspicion
}  // namespace

HeapBlock *new_heap_block(BlockCache &cache, uintptr_t start, uintptr_t size, StackId stack,
                          Tid thread) {
  void *memory;
  if (HeapBlock *cached = cache.head) {
    cache.head = cached->next_fine;
    --cache.count;
    memory = cached;
  } else {
    memory = internal_alloc(sizeof(HeapBlock));
  }
  auto *b = new (memory) HeapBlock();
  b->start = start;
  b->size = size;
  b->alloc_stack = stack;
  b->alloc_thread = thread;
  return b;
}

bool make_block_fine(HeapBlock *block) {
  bool expected = false;
  if (!block->fine.compare_exchange_strong(expected, true)) return false;
  {
    SpinLockGuard guard(g_fine_lock);
    block->next_fine = g_fine_blocks;
    g_fine_blocks = block;
  }
  // Pages still pointing at the block read as Virgin from now on (the
  // access path checks `fine`, and turns a granule's Indirect word into a
  // Virgin state when it meets one); unhooking the pages makes that explicit
  // without touching the shadow of every granule of a large block.
  uintptr_t begin = block->start, end = block->start + block->size;
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t, uint32_t, uint32_t) {
    HeapBlock *expected_block = block;
    page->block.compare_exchange_strong(expected_block, nullptr);
  });
  return true;
}

HeapBlock *find_heap_block(uintptr_t addr) {
  if (ShadowPage *page = find_shadow_page(addr)) {
    if (HeapBlock *b = page->block.load(std::memory_order_acquire)) return b;
  }
  if (std::atomic<uint64_t> *cell = find_cell(addr)) {
    if (HeapBlock *b = block_of_word(cell->load(std::memory_order_acquire))) return b;
  }
  SpinLockGuard guard(g_fine_lock);
  for (HeapBlock *b = g_fine_blocks; b; b = b->next_fine)
    if (addr >= b->start && addr < b->start + b->size) return b;
  return nullptr;
}

void delete_heap_block(BlockCache &cache, HeapBlock *block) {
  if (block->fine.load()) {
    SpinLockGuard guard(g_fine_lock);
    for (HeapBlock **link = &g_fine_blocks; *link; link = &(*link)->next_fine)
      if (*link == block) {
        *link = block->next_fine;
        break;
      }
  }
  block->type = IndirectType::kBlock;
  block->start = block->size = 0;
  if (cache.count < BlockCache::kCapacity) {
    block->next_fine = cache.head;  // the link doubles as the cache's
    cache.head = block;
    ++cache.count;
  } else {
    internal_free(block);
  }
}

void release_block_cache(BlockCache &cache) {
  while (HeapBlock *block = cache.head) {
    cache.head = block->next_fine;
    internal_free(block);
  }
  cache.count = 0;
}

}  // namespace snag::race
