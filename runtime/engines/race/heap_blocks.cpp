#include "engines/race/heap_blocks.h"
#include "engines/race/fine_blocks.h"
#include "engines/race/state_records.h"

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

// A free record's link (heap_blocks.h: in stack_or_shape and thread_or_clock).
constexpr size_t kFreeLinkOffset = offsetof(HeapBlock, stack_or_shape);
HeapBlock *next_free(const HeapBlock *record) {
  HeapBlock *next;
  __builtin_memcpy(&next, reinterpret_cast<const char *>(record) + kFreeLinkOffset, sizeof next);
  return next;
}
void set_next_free(HeapBlock *record, HeapBlock *next) {
  __builtin_memcpy(reinterpret_cast<char *>(record) + kFreeLinkOffset, &next, sizeof next);
}

// Block records come from slabs of their own, packed at their exact size:
// a program keeps one record per live heap block, and through the runtime
// allocator (a 16-byte header, then the next size class) each took 192
// bytes instead of 168 -- 1.7 MB of thread_local_heavy's 70,000 records.
// One kind of slab per record size (packed, 88 bytes; wide, 112; thin, 32),
// so that a record keeps its size for good, whatever a racing reader of a
// dead record believes. Records are never unmapped: the fast path may read
// one while a racing thread frees its block.
constexpr size_t kRecordSlab = size_t(1) << 20;
struct RecordSlabs {
  HeapBlock *free_records = nullptr;
  char *next = nullptr;
  char *end = nullptr;
};
SpinLock g_record_lock;
RecordSlabs g_slabs[3];  // by RecordSlab

RecordSlab slab_of(RecordForm form) {
  switch (form) {
    case RecordForm::kPacked: return kPackedSlab;
    case RecordForm::kWide: return kWideSlab;
    default: return kThinSlab;
  }
}
size_t record_bytes(RecordSlab slab) {
  return slab == kWideSlab ? kWideHeapBlockBytes : slab == kThinSlab ? kThinHeapBlockBytes : kPackedHeapBlockBytes;
}

// A thin slab's span, kThinSlabSpan-aligned: twice the span mapped, the
// rest given back.
char *map_thin_slab() {
  char *mapped = static_cast<char *>(map_pages(2 * kThinSlabSpan));
  char *aligned = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(mapped) + kThinSlabSpan - 1) & ~(kThinSlabSpan - 1));
  if (aligned > mapped) unmap_pages(mapped, size_t(aligned - mapped));
  char *tail = aligned + kThinSlabSpan;
  if (tail < mapped + 2 * kThinSlabSpan) unmap_pages(tail, size_t(mapped + 2 * kThinSlabSpan - tail));
  return aligned;
}

// Thin records are handed out of the slab in line-aligned groups of four
// (128 bytes, two cache lines), the rest of a group going to the taking
// thread's cache: a 32-byte record shares a line with its neighbour, and
// records taken one at a time by threads allocating at once interleave, so
// that one thread's compare-and-swap on its record's state and another's
// on the next record contended for the line (short_lived_locks, two threads
// churning blocks: +5-7% CPU with records handed out singly).
static_assert(kThinGroup * kThinHeapBlockBytes % 64 == 0 && kThinSpillsOffset % (kThinGroup * kThinHeapBlockBytes) == 0,
              "groups fill whole lines and the records area");

// A record of `slab`; for the thin slab, taken from the slab's fresh part,
// the other records of its group go to `rest` (the caller's cache list), or
// to the free records when there is none, and the group is `thread`'s
// (heap_blocks.h, thin_group_thread).
void *take_record(RecordSlab slab, BlockCache::List *rest = nullptr, Tid thread = kNoThread) {
  SpinLockGuard guard(g_record_lock);
  RecordSlabs &slabs = g_slabs[slab];
  if (HeapBlock *record = slabs.free_records) {
    slabs.free_records = next_free(record);
    return record;
  }
  if (size_t(slabs.end - slabs.next) < record_bytes(slab)) {
    if (slab == kThinSlab) {
      slabs.next = map_thin_slab();
      slabs.end = slabs.next + kThinSpillsOffset;
    } else {
      slabs.next = static_cast<char *>(map_pages(kRecordSlab));
      slabs.end = slabs.next + kRecordSlab;
    }
  }
  void *record = slabs.next;
  slabs.next += record_bytes(slab);
  if (slab == kThinSlab) {
    *thin_group_thread(static_cast<HeapBlock *>(record)) = thread + 1;
    // The group's others, last first: the cache hands them out in order.
    for (size_t i = kThinGroup - 1; i > 0; --i) {
      auto *other = reinterpret_cast<HeapBlock *>(static_cast<char *>(record) + i * kThinHeapBlockBytes);
      // Its slab (for give_back_record), and a block's type: new_heap_block
      // takes a cached thin record's type, form and flags as they are.
      other->form = static_cast<uint8_t>(RecordForm::kThin);
      other->type = IndirectType::kBlock;
      if (rest) {
        set_next_free(other, rest->head);
        rest->head = other;
        ++rest->count;
      } else {
        set_next_free(other, slabs.free_records);
        slabs.free_records = other;
      }
    }
    slabs.next += (kThinGroup - 1) * kThinHeapBlockBytes;
  }
  return record;
}

void give_back_record(HeapBlock *record) {
  SpinLockGuard guard(g_record_lock);
  RecordSlabs &slabs = g_slabs[slab_of(record_form(record))];
  set_next_free(record, slabs.free_records);
  slabs.free_records = record;
}

// A fresh record of form `form` for a block (or chunk) of `size` bytes in
// `memory` (from take_record or a cache, of that form's slab), its
// histories empty.
HeapBlock *make_record(void *memory, uintptr_t size, RecordForm form) {
  char *histories = static_cast<char *>(memory) + sizeof(HeapBlock);
  // Constant sizes, so that the clearing is a few stores, not a call; a
  // packed or wide record's tail with them (no refinement, the size's high
  // bits). A thin record's refinement index is 0 already: the slab's side
  // array starts zeroed and drop_refinement zeroes it again.
  switch (slab_of(form)) {
    case kThinSlab: break;  // the header is the whole record
    case kPackedSlab: __builtin_memset(histories, 0, sizeof(PackedHistories) + sizeof(RecordTail)); break;
    case kWideSlab: __builtin_memset(histories, 0, sizeof(Histories) + sizeof(RecordTail)); break;
  }
  auto *b = new (memory) HeapBlock();
  b->form = static_cast<uint8_t>(form);
  b->size_low = static_cast<uint32_t>(size);
  if (form == RecordForm::kWide) record_tail(b, form)->size_high = static_cast<uint32_t>(uint64_t(size) >> 32);
  return b;
}

// The refinement table: chunk i holds the refinements with indices from
// i << kRefinementChunkBits on (index 0 is never given out: "none").
// Chunks are never unmapped (a racing reader may still hold an index); a
// free refinement is linked through next_fine. Under g_fine_lock.
constexpr uint32_t kRefinementChunkBits = 10;
constexpr uint32_t kRefinementChunks = 1u << 14;  // 16 million refinements
std::atomic<BlockRefinement *> g_refinement_chunks[kRefinementChunks];
uint32_t g_next_refinement = 1;
BlockRefinement *g_free_refinements;

// A new refinement for `block` (under g_fine_lock).
BlockRefinement *give_refinement(HeapBlock *block) {
  uint32_t index;
  BlockRefinement *r;
  if ((r = g_free_refinements)) {
    g_free_refinements = reinterpret_cast<BlockRefinement *>(r->next_fine);
    index = r->chunk_count;  // kept there while free
  } else {
    index = g_next_refinement++;
    if ((index >> kRefinementChunkBits) >= kRefinementChunks) fatal("race: too many refined heap blocks");
    std::atomic<BlockRefinement *> &chunk = g_refinement_chunks[index >> kRefinementChunkBits];
    BlockRefinement *memory = chunk.load(std::memory_order_relaxed);
    if (!memory) {
      memory = static_cast<BlockRefinement *>(map_pages(sizeof(BlockRefinement) << kRefinementChunkBits));
      chunk.store(memory, std::memory_order_release);
    }
    r = memory + (index & ((1u << kRefinementChunkBits) - 1));
  }
  new (r) BlockRefinement();
  __atomic_store_n(refinement_slot(block), index, __ATOMIC_RELEASE);
  return r;
}

// Gives `block`'s refinement back (under g_fine_lock).
void drop_refinement(HeapBlock *block) {
  uint32_t *slot = refinement_slot(block);
  uint32_t index = *slot;
  BlockRefinement *r = refinement_at(index);
  __atomic_store_n(slot, 0u, __ATOMIC_RELEASE);
  if (!r) return;
  r->chunks.store(nullptr, std::memory_order_relaxed);
  r->parent = nullptr;
  r->chunk_count = index;  // the free refinement's own index, for give_refinement
  r->next_fine = reinterpret_cast<HeapBlock *>(g_free_refinements);
  g_free_refinements = r;
}

// The part of `block`'s remembered access `h` that falls inside `chunk`,
// relative to the chunk. False when the access did not touch the chunk.
bool clip_to_chunk(const History &h, const HeapBlock &block, const HeapBlock &chunk, History *out) {
  if (!h.stack) return false;
  uintptr_t lo = block.start + h.offset, hi = lo + h.size;
  uintptr_t chunk_end = block_end(&chunk);
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
  const Histories remembered = block_histories(&block);
  History Histories::*const slots[3] = {&Histories::write, &Histories::read, &Histories::other_read};
  const Kind k = kind_of(block_word);
  const bool exclusive = k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2;
  const History *chosen = nullptr;
  int rank = 4;  // of `chosen`: 0 `first`, 1 the owner's, 2 any
  for (History Histories::*slot : slots) {
    History clipped;
    if (!clip_to_chunk(remembered.*slot, block, chunk, &clipped)) continue;
    set_block_history(&chunk, slot, clipped);
    const History &h = remembered.*slot;
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

void spill_thin_record(HeapBlock *block) {
  if (!thin_record(block)) return;
  const ThinShape &shape = thin_record_shape(block);
  PackedHistories *spill = thin_record_spill(block);
  spill->read = widen_thin(shape, block->thread_or_clock, false);
  spill->other_read = PackedHistory{};
  spill->write = widen_thin(shape, block->thread_or_clock, true);
  // The thin slots stay as they were: a reader that took the form before
  // this store reads them, one that sees the new form reads the spill. The
  // shape stays too, for the allocation's stack.
  __atomic_store_n(&block->form, static_cast<uint8_t>(RecordForm::kThinSpilled), __ATOMIC_RELEASE);
}

BlockRefinement *refinement_at(uint32_t index) {
  if (index == 0 || (index >> kRefinementChunkBits) >= kRefinementChunks) return nullptr;
  BlockRefinement *chunk = g_refinement_chunks[index >> kRefinementChunkBits].load(std::memory_order_acquire);
  return chunk ? chunk + (index & ((1u << kRefinementChunkBits) - 1)) : nullptr;
}

uint32_t new_block_shape_slowly(BlockCache &cache, StackId stack) {
  const uint32_t shape = intern_thin_shape(ThinShape{stack, 0, 0, 0, 0, 0});
  cache.new_shapes[stack % BlockCache::kNewShapes] = BlockCache::NewShape{stack, shape};
  return shape;
}

HeapBlock *new_heap_block_slowly(BlockCache &cache, uintptr_t start, uintptr_t size, StackId stack,
                                 Tid thread, bool may_be_thin) {
  // A thin record names its allocation stack through its shape: none when
  // the shape table is full, and a packed record then.
  const uint32_t shape = may_be_thin && size <= kThinBlockBytes ? new_block_shape(cache, stack) : 0;
  const RecordForm form = record_form_for(size, shape != 0);
  const RecordSlab slab = slab_of(form);
  BlockCache::List &list = cache.lists[slab];
  void *memory;
  if (HeapBlock *cached = list.head) {
    list.head = next_free(cached);
    --list.count;
    memory = cached;
  } else {
    memory = take_record(slab, &list, thread);
  }
  HeapBlock *b = make_record(memory, size, form);
  b->start = start;
  if (form == RecordForm::kThin) {
    b->stack_or_shape = shape;
    set_thin_record_thread(b, thread);
  } else {
    b->stack_or_shape = stack;
    b->thread_or_clock = thread;
  }
  return b;
}

bool make_block_fine(HeapBlock *block) {
  {
    SpinLockGuard guard(g_fine_lock);
    if (block->fine.load(std::memory_order_acquire)) return false;
    BlockRefinement *r = refinement_of(block);  // a chunk has one already
    if (!r) r = give_refinement(block);
    block->fine.store(true, std::memory_order_release);
    if (!block->is_chunk) fine_blocks_add(block);  // a chunk is found through its block
  }
  // Pages still pointing at the block read as Virgin from now on (the
  // access path checks `fine`, and turns a granule's Indirect word into a
  // Virgin state when it meets one); unhooking the pages makes that explicit
  // without touching the shadow of every granule of a large block.
  uintptr_t begin = block->start, end = block_end(block);
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t, uint32_t, uint32_t) {
    HeapBlock *expected_block = block;
    page->block.compare_exchange_strong(expected_block, nullptr);
  });
  return true;
}

bool cut_into_chunks_first(const HeapBlock *block) {
  return !block->is_chunk && block_size(block) > kChunkSize;
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
  const uintptr_t base = chunk_base(block), end = block_end(block);
  const uint32_t count = static_cast<uint32_t>((end - base + kChunkSize - 1) / kChunkSize);
  auto **chunks = internal_new_array<HeapBlock *>(count);
  for (uint32_t i = 0; i < count; ++i) {
    uintptr_t lo = base + uintptr_t(i) * kChunkSize, hi = lo + kChunkSize;
    if (lo < block->start) lo = block->start;
    if (hi > end) hi = end;
    const RecordForm form = record_form_for(hi - lo, /*may_be_thin=*/false);
    HeapBlock *chunk = chunks[i] = make_record(take_record(slab_of(form)), hi - lo, form);
    chunk->start = lo;
    chunk->stack_or_shape = block_allocation_stack(block);  // a chunk's record is never of the thin slab
    chunk->thread_or_clock = block_allocation_thread(block);
    chunk->is_chunk = true;
    give_refinement(chunk)->parent = block;
    inherit(*chunk, *block, word, conflicting);
  }
  BlockRefinement *r = give_refinement(block);
  r->chunk_count = count;
  r->chunks.store(chunks, std::memory_order_release);
  block->fine.store(true, std::memory_order_release);
  fine_blocks_add(block);
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
  return fine_blocks_find(addr);
}

HeapBlock *find_tracking_block(uintptr_t addr) {
  HeapBlock *block = find_heap_block(addr);
  return block ? chunk_of(block, addr) : nullptr;
}

void drop_block_refinement(HeapBlock *block) {
  if (!block_refinement_index(block)) return;
  HeapBlock **chunks = nullptr;
  uint32_t count = 0;
  {
    SpinLockGuard guard(g_fine_lock);
    BlockRefinement *r = refinement_of(block);
    if (r && block->fine.load()) fine_blocks_remove(block);
    if (r) {
      chunks = r->chunks.exchange(nullptr);
      count = r->chunk_count;
    }
    for (uint32_t i = 0; chunks && i < count; ++i) {
      chunks[i]->fine.store(false, std::memory_order_relaxed);
      chunks[i]->is_chunk = false;
      drop_refinement(chunks[i]);
    }
    drop_refinement(block);
  }
  if (chunks) {
    for (uint32_t i = 0; i < count; ++i) {
      retire_state_records(chunks[i]->state.exchange(0, std::memory_order_acq_rel));
      give_back_record(chunks[i]);
    }
    internal_free(chunks);
  }
}

void give_back_heap_record(HeapBlock *record) { give_back_record(record); }

void release_block_cache(BlockCache &cache) {
  for (BlockCache::List &list : cache.lists) {
    while (HeapBlock *block = list.head) {
      list.head = next_free(block);
      give_back_record(block);
    }
    list.count = 0;
  }
}

}  // namespace snag::race
