#include "engines/race/heap_blocks.h"

#include <new>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

#include <sys/syscall.h>

namespace snag::race {

namespace {
// Taken for every refinement (they are rare), so that a block is made fine
// or cut into chunks once, by one thread.
SpinLock g_fine_lock;
HeapBlock *g_fine_blocks;  // few: only blocks that raised suspicion

// Block records come from slabs of their own, packed at their exact size:
// a program keeps one record per live heap block, and through the runtime
// allocator (a 16-byte header, then the next size class) each took 192
// bytes instead of 168 -- 1.7 MB of thread_local_heavy's 70,000 records.
// Records are never unmapped: the fast path may read one while a racing
// thread frees its block. A free record is linked through next_fine, which
// no reader of a dead record looks at.
constexpr size_t kRecordSlab = size_t(1) << 20;
SpinLock g_record_lock;
HeapBlock *g_free_records;
char *g_slab_next;
char *g_slab_end;

void *take_record() {
  SpinLockGuard guard(g_record_lock);
  if (HeapBlock *record = g_free_records) {
    g_free_records = record->next_fine;
    return record;
  }
  if (size_t(g_slab_end - g_slab_next) < sizeof(HeapBlock)) {
    g_slab_next = static_cast<char *>(map_pages(kRecordSlab));
    g_slab_end = g_slab_next + kRecordSlab;
  }
  void *record = g_slab_next;
  g_slab_next += sizeof(HeapBlock);
  return record;
}

void give_back_record(HeapBlock *record) {
  SpinLockGuard guard(g_record_lock);
  record->next_fine = g_free_records;
  g_free_records = record;
}

// The part of `block`'s remembered access `h` that falls inside `chunk`,
// relative to the chunk. False when the access did not touch the chunk.
bool clip_to_chunk(const History &h, const HeapBlock &block, const HeapBlock &chunk, History *out) {
  if (!h.stack) return false;
  uintptr_t lo = block.start + h.offset, hi = lo + h.size;
  uintptr_t chunk_end = chunk.start + chunk.size;
  if (lo < chunk.start) lo = chunk.start;
  if (hi > chunk_end) hi = chunk_end;
  if (lo >= hi) return false;
  *out = h;
  out->offset = static_cast<uint32_t>(lo - chunk.start);
  out->size = static_cast<uint16_t>(hi - lo);
  return true;
}

// Chunk `chunk` of `block` inherits the block's accesses that touched it.
// Its state comes from one of them, tried in this order: `first` (the access
// the refining thread conflicts with, which it checks again on the chunk),
// the block owner's access in its current epoch (the owner's word stays),
// the write, the reads. Chunks no remembered access touched start Virgin.
void inherit(HeapBlock &chunk, const HeapBlock &block, uint64_t block_word, const History *first) {
  const History *from[3] = {&block.history.write, &block.history.read, &block.history.other_read};
  History *to[3] = {&chunk.history.write, &chunk.history.read, &chunk.history.other_read};
  const Kind k = kind_of(block_word);
  const bool exclusive = k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2;
  const History *chosen = nullptr;
  int rank = 4;  // of `chosen`: 0 `first`, 1 the owner's, 2 any
  for (int i = 0; i < 3; ++i) {
    if (!clip_to_chunk(*from[i], block, chunk, to[i])) continue;
    const History &h = *from[i];
    bool is_first = first && h.stack == first->stack && h.thread == first->thread &&
                    h.clock == first->clock && h.offset == first->offset && h.write == first->write;
    bool owners = exclusive && tid_of(block_word) == wrap_tid(h.thread) && clock_of(block_word) == h.clock;
    int r = is_first ? 0 : owners ? 1 : 2;
    if (r < rank) rank = r, chosen = &h;
  }
  if (!chosen) return;  // Virgin
  bool owners = exclusive && tid_of(block_word) == wrap_tid(chosen->thread) && clock_of(block_word) == chosen->clock;
  chunk.state.store(owners ? exclusive_word(k, chosen->thread, chosen->clock, chosen->write)
                           : exclusive_word(Kind::kExclusive1, chosen->thread, chosen->clock, chosen->write),
                    std::memory_order_relaxed);
}

}  // namespace

HeapBlock *new_heap_block(BlockCache &cache, uintptr_t start, uintptr_t size, StackId stack,
                          Tid thread) {
  void *memory;
  if (HeapBlock *cached = cache.head) {
    cache.head = cached->next_fine;
    --cache.count;
    memory = cached;
  } else {
    memory = take_record();
  }
  auto *b = new (memory) HeapBlock();
  b->start = start;
  b->size = size;
  b->alloc_stack = stack;
  b->alloc_thread = thread;
  return b;
}

bool make_block_fine(HeapBlock *block) {
  {
    SpinLockGuard guard(g_fine_lock);
    if (block->fine.load(std::memory_order_acquire)) return false;
    block->fine.store(true, std::memory_order_release);
    if (!block->parent) {  // a chunk is found through its block
      block->next_fine = g_fine_blocks;
      g_fine_blocks = block;
    }
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

bool cut_into_chunks_first(const HeapBlock *block) {
  return !block->parent && block->size > kChunkSize;
}

bool cut_block_into_chunks(HeapBlock *block, const History *conflicting) {
  SpinLockGuard guard(g_fine_lock);
  if (block->fine.load(std::memory_order_acquire)) return false;
  // Claim the block's state (as a history update does), so that its
  // histories hold still while the chunks copy them, and an access working
  // on the block waits and then runs again on its chunk.
  uint64_t word;
  for (unsigned spins = 0;; ++spins) {
    word = block->state.load(std::memory_order_acquire);
    if (word != kBusyWord && block->state.compare_exchange_strong(word, kBusyWord)) break;
    if (spins > 64) raw_syscall(SYS_sched_yield);
  }
  const uintptr_t base = chunk_base(block), end = block->start + block->size;
  const uint32_t count = static_cast<uint32_t>((end - base + kChunkSize - 1) / kChunkSize);
  auto **chunks = internal_new_array<HeapBlock *>(count);
  for (uint32_t i = 0; i < count; ++i) {
    uintptr_t lo = base + uintptr_t(i) * kChunkSize, hi = lo + kChunkSize;
    if (lo < block->start) lo = block->start;
    if (hi > end) hi = end;
    HeapBlock *chunk = chunks[i] = new (take_record()) HeapBlock();
    chunk->start = lo;
    chunk->size = hi - lo;
    chunk->alloc_stack = block->alloc_stack;
    chunk->alloc_thread = block->alloc_thread;
    chunk->parent = block;
    inherit(*chunk, *block, word, conflicting);
  }
  block->chunk_count = count;
  block->chunks.store(chunks, std::memory_order_release);
  block->fine.store(true, std::memory_order_release);
  block->next_fine = g_fine_blocks;
  g_fine_blocks = block;
  block->state.store(pointer_word(Kind::kIndirect, chunks[0]), std::memory_order_release);
  // Whole pages point at their chunk (chunks are page-aligned); the
  // granules of a ragged first or last page keep the block's word, which
  // the access path follows to the chunk.
  for_each_shadow_page(block->start, end, [&](ShadowPage *page, uintptr_t page_start, uint32_t, uint32_t) {
    HeapBlock *expected = block;
    page->block.compare_exchange_strong(expected, chunks[(page_start - base) / kChunkSize]);
  });
  return true;
}

HeapBlock *find_heap_block(uintptr_t addr) {
  if (ShadowPage *page = find_shadow_page(addr)) {
    if (HeapBlock *b = page->block.load(std::memory_order_acquire)) return allocation_of(b);
  }
  if (std::atomic<uint64_t> *cell = find_cell(addr)) {
    if (HeapBlock *b = block_of_word(cell->load(std::memory_order_acquire))) return allocation_of(b);
  }
  SpinLockGuard guard(g_fine_lock);
  for (HeapBlock *b = g_fine_blocks; b; b = b->next_fine)
    if (addr >= b->start && addr < b->start + b->size) return b;
  return nullptr;
}

HeapBlock *find_tracking_block(uintptr_t addr) {
  HeapBlock *block = find_heap_block(addr);
  return block ? chunk_of(block, addr) : nullptr;
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
  if (HeapBlock **chunks = block->chunks.exchange(nullptr)) {
    for (uint32_t i = 0; i < block->chunk_count; ++i) give_back_record(chunks[i]);
    internal_free(chunks);
  }
  block->chunk_count = 0;
  block->type = IndirectType::kBlock;
  block->start = block->size = 0;
  if (cache.count < BlockCache::kCapacity) {
    block->next_fine = cache.head;  // the link doubles as the cache's
    cache.head = block;
    ++cache.count;
  } else {
    give_back_record(block);
  }
}

void release_block_cache(BlockCache &cache) {
  while (HeapBlock *block = cache.head) {
    cache.head = block->next_fine;
    give_back_record(block);
  }
  cache.count = 0;
}

}  // namespace snag::race
