// Heap blocks and split granules: the two things an Indirect state word
// points to.
//
// Adaptive granularity (RaceTrack 2.4.2): a heap block starts with one state
// for the whole block; every granule's shadow word points at the block. When
// the block's state would report, the block turns fine: its granules get
// states of their own. A granule whose accesses by different threads touch
// different bytes (two fields in one 8-byte word) splits once more, into one
// state per byte.
//
// A block larger than a chunk (64 KiB) is first cut into chunks, each a
// coarse block of its own: two threads each using their own part of one
// large block (halves of a buffer, slices of an array) then keep one cheap
// state per chunk instead of a state and a history per granule of the whole
// block. A chunk that looks racy in turn goes fine.
#pragma once

#include <atomic>
#include <stddef.h>
#include <stdint.h>

#include "engines/race/shadow.h"
#include "engines/race/state.h"
#include "engines/race/state_records.h"
#include "engines/race/thin_shapes.h"

namespace snag::race {

// How a record keeps its histories (its second byte). Its slab holds
// records of one size, so a record keeps the size its form gives for good,
// whatever a racing reader of a dead record believes: packed (88 bytes) or
// wide (112) from the record's birth to its reuse, and thin (32) or thin
// spilled, which share one slab (a thin record spills once, and is thin
// again when reused).
enum class RecordForm : uint8_t {
  kPacked = 0,       // a block or chunk of 65 B to 1 KiB: PackedHistories after the header
  kWide = 1,         // a larger block or chunk: Histories after the header
  kThin = 2,         // a block of at most 64 B: a shape and a clock in the header (below)
  kThinSpilled = 3,  // a thin record whose histories outgrew it: PackedHistories in its spill
};

struct HeapBlock {
  // The fast path reads fine, size, state and start together (fast_path.h,
  // and the check the compiler pass inlines: include/snag/race_fast_path.h):
  // keep them in the first 24 bytes, which a 32-byte thin record has in one
  // cache line wherever it sits.
  IndirectType type = IndirectType::kBlock;
  // RecordForm, read with __atomic loads: a thin record's turns spilled
  // while its state is claimed (spill_thin_record).
  uint8_t form = 0;
  std::atomic<bool> fine{false};
  bool is_chunk = false;  // a piece of a larger block (its refinement names the block)
  // The size's low 32 bits (block_size() gives the whole size: a wide
  // record keeps the high bits in its tail). 32 bits, so that the header is
  // 32 bytes and a thin record 48: the inlined check adds it to `start`, and
  // for a block of 4 GiB or more that sum never matches the remembered end,
  // so such a block is answered by the hooks, never wrongly by the check.
  uint32_t size_low = 0;
  std::atomic<uint64_t> state{0};
  uintptr_t start = 0;
  // A packed or wide record: its allocation's stack and thread. A record of
  // the thin slab (thin or spilled): its shape's id (thin_shapes.h: the
  // allocation's stack, and its slots' stacks, places and thread) and its
  // slots' clock; its allocating thread is in its slab's side array.
  // block_allocation_stack() and block_allocation_thread() read either. A
  // free record (in the shared free list or a thread's BlockCache) is linked
  // through these 8 bytes: a dead record's allocation is never reported.
  uint32_t stack_or_shape = 0;
  uint32_t thread_or_clock = 0;
  // What only a block that went fine or was cut into chunks needs (its link
  // in the list of fine blocks, its chunks, a chunk's block) is kept in a
  // side table (heap_blocks.cpp), found through the record's refinement
  // index (refinement_slot: after a packed or wide record's histories, in a
  // side array of a thin record's slab), 0 while the block has none.
  //
  // A packed or wide record's histories follow the header, in the form
  // `form` says. Most live blocks are small (thread_local_heavy: about
  // 94,000 map and unordered_map nodes of 16-48 bytes at its peak, in thin
  // records; lock_hash_map: 4,096 bucket vectors of 16 B to 1 KiB).
};
static_assert(sizeof(HeapBlock) == 32, "a record's header stays small, and is a whole thin record");

// What a packed or wide record keeps after its histories: the refinement
// index, and the size's high 32 bits (only a wide record's block can reach
// 4 GiB; a packed record's stay 0).
struct RecordTail {
  uint32_t refinement;
  uint32_t size_high;
};

// A thin record: a block of at most kThinBlockBytes keeps its read and
// write in the record's last 8 bytes while they fit: made with no lock held
// (no lockset word; offset and size below 64 then), by one thread at one
// clock, kept once for both slots. The clock is the record's own (32
// bits); the rest -- the slots' stacks, places and thread, and the
// allocation's stack -- is its shape, interned (thin_shapes.h): blocks made
// and used alike share one. Most small blocks stay so all their life
// (thread_local_heavy's map nodes: one thread, no lock, a clock that does
// not move while they live); the record is 32 bytes where a packed one
// takes 88 (and the thin record with its histories inline took 48). The
// first access that does not fit -- by another thread or at another clock
// than the other slot's, or under a lock, or a shape the table cannot take
// -- spills the record (spill_thin_record): its histories move, unchanged,
// to the record's spill, a PackedHistories at a place fixed by the
// record's own address (heap_blocks.cpp: each thin slab has its spills
// after its records, in memory that costs nothing until a record spills),
// so no Indirect word and no pointer to the record changes. A spilled
// record keeps its shape for its allocation's stack.
constexpr uintptr_t kThinBlockBytes = 64;
constexpr size_t kThinHeapBlockBytes = sizeof(HeapBlock);
constexpr size_t kPackedHeapBlockBytes = sizeof(HeapBlock) + sizeof(PackedHistories) + sizeof(RecordTail);
constexpr size_t kWideHeapBlockBytes = sizeof(HeapBlock) + sizeof(Histories) + sizeof(RecordTail);
static_assert(kThinHeapBlockBytes == 32 && kPackedHeapBlockBytes == 88 && kWideHeapBlockBytes == 112,
              "record sizes");
static_assert(kThinBlockBytes <= (1u << kPackedLowBits), "a thin block's offsets and sizes fit `where`");
static_assert(offsetof(HeapBlock, thread_or_clock) == offsetof(HeapBlock, stack_or_shape) + 4 &&
                  offsetof(HeapBlock, stack_or_shape) % alignof(HeapBlock *) == 0,
              "a free record's link fills stack_or_shape and thread_or_clock");

// The form a new record for a block (or chunk) of `size` bytes takes. A
// chunk is never thin (cut_block_into_chunks copies histories into it that
// need not fit), nor a block allocated under a lock (new_heap_block).
SNAG_ALWAYS_INLINE RecordForm record_form_for(uintptr_t size, bool may_be_thin) {
  if (size > kPackedVariableBytes) return RecordForm::kWide;
  return may_be_thin && size <= kThinBlockBytes ? RecordForm::kThin : RecordForm::kPacked;
}
// Whether a record of a block (or chunk) of `size` bytes keeps wide histories.
SNAG_ALWAYS_INLINE bool wide_record_for(uintptr_t size) { return size > kPackedVariableBytes; }
SNAG_ALWAYS_INLINE RecordForm record_form(const HeapBlock *block) {
  return static_cast<RecordForm>(__atomic_load_n(&block->form, __ATOMIC_ACQUIRE));
}
SNAG_ALWAYS_INLINE bool of_thin_slab(RecordForm form) {
  return form == RecordForm::kThin || form == RecordForm::kThinSpilled;
}
SNAG_ALWAYS_INLINE void *record_histories(const HeapBlock *block) {
  return const_cast<char *>(reinterpret_cast<const char *>(block) + sizeof(HeapBlock));
}
// A thin slab (heap_blocks.cpp): a kThinSlabSpan-aligned span holding
// kThinRecords records, then one spill (PackedHistories) per record, then
// one refinement index per record, then one allocating thread per record,
// then one per group of kThinGroup records, so that a record finds each
// from its own address. The spills cost memory only where records spilled
// (a page of spills serves 85 records), the refinement indices a page per
// 1,024 records that went fine.
//
// A record's allocating thread is its group's (the thread that took the
// group from the slab: all four go to its cache, take_record) unless it
// was allocated by another thread, which its own entry then names: one
// page of group threads per 4,096 records, where a thread per record wrote
// a page per 1,024 (thread_local_heavy: 64 KB of each full slab, ~0.38 MB
// of its ~94,000 nodes' records). Own entries are written only when a
// record freed by one thread is reused by another (a producer's blocks freed
// by a consumer), and cleared when the group's thread has it again. Both
// hold the thread plus one (0: none; an entry of 0 defers to the group).
constexpr size_t kThinSlabSpan = size_t(2) << 20;
constexpr size_t kThinRecords = 16384;
constexpr size_t kThinGroup = 4;
constexpr size_t kThinSpillsOffset = kThinRecords * kThinHeapBlockBytes;
constexpr size_t kThinRefinementsOffset = kThinSpillsOffset + kThinRecords * sizeof(PackedHistories);
constexpr size_t kThinThreadsOffset = kThinRefinementsOffset + kThinRecords * sizeof(uint32_t);
constexpr size_t kThinGroupThreadsOffset = kThinThreadsOffset + kThinRecords * sizeof(Tid);
static_assert(kThinGroupThreadsOffset + kThinRecords / kThinGroup * sizeof(Tid) <= kThinSlabSpan,
              "side arrays fit");
SNAG_ALWAYS_INLINE size_t thin_record_index(const HeapBlock *block) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(block);
  return (address & (kThinSlabSpan - 1)) / kThinHeapBlockBytes;
}
SNAG_ALWAYS_INLINE uintptr_t thin_slab_of(const HeapBlock *block) {
  return reinterpret_cast<uintptr_t>(block) & ~(kThinSlabSpan - 1);
}
// The spill of a record from a thin slab.
SNAG_ALWAYS_INLINE PackedHistories *thin_record_spill(const HeapBlock *block) {
  auto *spills = reinterpret_cast<PackedHistories *>(thin_slab_of(block) + kThinSpillsOffset);
  return spills + thin_record_index(block);
}
// A record of a thin slab's own allocating-thread entry (thread + 1; 0:
// its group's thread), and its group's (thread + 1; 0: none yet).
SNAG_ALWAYS_INLINE Tid *thin_record_thread(const HeapBlock *block) {
  return reinterpret_cast<Tid *>(thin_slab_of(block) + kThinThreadsOffset) + thin_record_index(block);
}
SNAG_ALWAYS_INLINE Tid *thin_group_thread(const HeapBlock *block) {
  return reinterpret_cast<Tid *>(thin_slab_of(block) + kThinGroupThreadsOffset) +
         thin_record_index(block) / kThinGroup;
}
// Notes `thread` as the allocating thread of a record of a thin slab: no
// store when it is the group's and the record's own entry is clear (a load
// of a page no record of it ever needed reads the zero page, which costs
// no memory). (kNoThread, which no allocating thread is, reads back as the
// group's.)
SNAG_ALWAYS_INLINE void set_thin_record_thread(const HeapBlock *block, Tid thread) {
  Tid *own = thin_record_thread(block);
  const Tid mine = thread + 1;
  if (SNAG_LIKELY(*thin_group_thread(block) == mine)) {
    if (SNAG_UNLIKELY(*own != 0)) *own = 0;
  } else {
    *own = mine;
  }
}
// The stack and thread that allocated `block` (a chunk: its block's).
SNAG_ALWAYS_INLINE StackId block_allocation_stack(const HeapBlock *block) {
  return of_thin_slab(record_form(block)) ? thin_shape(block->stack_or_shape).alloc_stack : block->stack_or_shape;
}
SNAG_ALWAYS_INLINE Tid block_allocation_thread(const HeapBlock *block) {
  if (!of_thin_slab(record_form(block))) return block->thread_or_clock;
  const Tid own = *thin_record_thread(block);
  return (own ? own : *thin_group_thread(block)) - 1;
}
// A packed or wide record's tail (after its histories).
SNAG_ALWAYS_INLINE RecordTail *record_tail(const HeapBlock *block, RecordForm form) {
  const size_t histories = form == RecordForm::kWide ? sizeof(Histories) : sizeof(PackedHistories);
  return reinterpret_cast<RecordTail *>(const_cast<char *>(reinterpret_cast<const char *>(block)) +
                                        sizeof(HeapBlock) + histories);
}
// Where a record keeps its refinement index: in its tail, or for a record
// of a thin slab (thin or spilled: the same place) in the slab's side
// array. A record keeps its slab for good, so the place never changes.
SNAG_ALWAYS_INLINE uint32_t *refinement_slot(const HeapBlock *block) {
  const RecordForm form = static_cast<RecordForm>(__atomic_load_n(&block->form, __ATOMIC_ACQUIRE));
  if (of_thin_slab(form))
    return reinterpret_cast<uint32_t *>(thin_slab_of(block) + kThinRefinementsOffset) + thin_record_index(block);
  return &record_tail(block, form)->refinement;
}
SNAG_ALWAYS_INLINE uint32_t block_refinement_index(const HeapBlock *block) {
  return __atomic_load_n(refinement_slot(block), __ATOMIC_ACQUIRE);
}
// A block's (or chunk's) size in bytes.
SNAG_ALWAYS_INLINE uintptr_t block_size(const HeapBlock *block) {
  uintptr_t size = block->size_low;
  if (SNAG_UNLIKELY(record_form(block) == RecordForm::kWide))
    size |= uintptr_t(record_tail(block, RecordForm::kWide)->size_high) << 32;
  return size;
}
SNAG_ALWAYS_INLINE uintptr_t block_end(const HeapBlock *block) { return block->start + block_size(block); }
// Whether [start, end) is the range the fast path's 32-bit size gives
// `block` (as the inlined check asks it: never for a block of 4 GiB or more).
SNAG_ALWAYS_INLINE bool fast_path_range_is(const HeapBlock *block, uintptr_t start, uintptr_t end) {
  return block->start == start && block->start + block->size_low == end;
}
// A wide record's histories; null otherwise.
SNAG_ALWAYS_INLINE Histories *wide_histories(HeapBlock *block) {
  return record_form(block) == RecordForm::kWide ? static_cast<Histories *>(record_histories(block)) : nullptr;
}
// The packed histories of a packed record, or of a thin record that spilled;
// null otherwise.
SNAG_ALWAYS_INLINE PackedHistories *packed_histories(HeapBlock *block) {
  switch (record_form(block)) {
    case RecordForm::kPacked: return static_cast<PackedHistories *>(record_histories(block));
    case RecordForm::kThinSpilled: return thin_record_spill(block);
    default: return nullptr;
  }
}
// Whether `block` keeps its histories thin (it has not spilled).
SNAG_ALWAYS_INLINE bool thin_record(const HeapBlock *block) { return record_form(block) == RecordForm::kThin; }
// A thin record's shape.
SNAG_ALWAYS_INLINE const ThinShape &thin_record_shape(const HeapBlock *block) {
  return thin_shape(block->stack_or_shape);
}
// A thin slot (of shape `s`, its clock `clock`) as a packed history (an
// empty one as an empty one).
SNAG_ALWAYS_INLINE PackedHistory widen_thin(const ThinShape &s, uint32_t clock, bool write) {
  const uint32_t stack = write ? s.write_stack : s.read_stack;
  if (!stack) return PackedHistory{};
  const uint32_t where = write ? s.write_where : s.read_where;
  return PackedHistory{stack, 0, clock, s.thread | where << 20};
}
// Writes `p` into the read or write slot of thin record `block`, if it
// fits: no lockset (nor offset or size bits beyond 6), the other slot
// empty or of the same thread and clock, and a shape the table takes.
// False (nothing written) otherwise.
SNAG_ALWAYS_INLINE bool set_thin_slot(HeapBlock *block, bool write, const PackedHistory &p) {
  if (p.lockset_high != 0) return false;
  const ThinShape &s = thin_record_shape(block);
  const uint32_t other = write ? s.read_stack : s.write_stack;
  if (other && (s.thread != slot_thread(p) || block->thread_or_clock != p.clock)) return false;
  ThinShape next = s;
  next.thread = slot_thread(p);
  const uint16_t where = static_cast<uint16_t>(p.where >> 20);  // offset and size - 1: 12 bits
  if (write) next.write_stack = p.stack, next.write_where = where;
  else next.read_stack = p.stack, next.read_where = where;
  const uint32_t id = intern_thin_shape(next);
  if (!id) return false;
  block->stack_or_shape = id;
  block->thread_or_clock = p.clock;
  return true;
}
// Moves a thin record's histories to its spill, where they are kept packed
// from now on. Only with the block's state claimed (kBusyWord), as every
// change of histories; a no-op for a record that is not thin.
void spill_thin_record(HeapBlock *block);

// A copy of a block's histories, unpacked.
SNAG_ALWAYS_INLINE Histories block_histories(const HeapBlock *block) {
  HeapBlock *b = const_cast<HeapBlock *>(block);
  if (Histories *wide = wide_histories(b)) return *wide;
  Histories out;
  if (thin_record(b)) {
    const ThinShape &s = thin_record_shape(b);
    const uint32_t clock = b->thread_or_clock;
    out.read = s.read_stack ? unpack_history(widen_thin(s, clock, false), false) : History{};
    out.other_read = History{};
    out.write = s.write_stack ? unpack_history(widen_thin(s, clock, true), true) : History{};
    return out;
  }
  unpack_histories(*packed_histories(b), &out);
  return out;
}

// What the history slot thread `me` remembers an access of the given kind in
// holds (history_slot's choice), for a block whose histories are not wide:
// its stack (0: empty), thread and clock.
struct SlotKey {
  uint32_t stack, thread, clock;
};
SNAG_ALWAYS_INLINE SlotKey block_slot_key(HeapBlock *block, bool write, Tid me) {
  if (thin_record(block)) {
    // A read goes to other_read (which a thin record has none of: empty)
    // when the read slot holds another thread's.
    const ThinShape &shape = thin_record_shape(block);
    const bool none = !write && shape.read_stack && shape.thread != (me & kPackedThreadMask);
    const PackedHistory s = none ? PackedHistory{} : widen_thin(shape, block->thread_or_clock, write);
    return {s.stack, slot_thread(s), s.clock};
  }
  const PackedHistory &s = history_slot(*packed_histories(block), write, me);
  return {s.stack, slot_thread(s), s.clock};
}

// Remembers `p` in the slot thread `me` remembers an access of the given
// kind in (history_slot's choice), for a block whose histories are not
// wide: in the thin record while it fits there, else in the packed
// histories (spilling a thin record first). With the state claimed.
SNAG_ALWAYS_INLINE void set_block_slot(HeapBlock *block, bool write, Tid me, const PackedHistory &p) {
  if (thin_record(block)) {
    // A read whose slot would be other_read (the read slot holds another
    // thread's) does not fit.
    const ThinShape &shape = thin_record_shape(block);
    const bool other_read = !write && shape.read_stack && shape.thread != (me & kPackedThreadMask);
    if (!other_read && set_thin_slot(block, write, p)) return;
    spill_thin_record(block);
  }
  history_slot(*packed_histories(block), write, me) = p;
}

// Writes `h` into a block's history slot `slot` (&Histories::read,
// ::other_read or ::write), packing it for a packed or thin record. With
// the state claimed.
SNAG_ALWAYS_INLINE void set_block_history(HeapBlock *block, History Histories::*slot, const History &h) {
  if (Histories *wide = wide_histories(block)) {
    wide->*slot = h;
    return;
  }
  PackedHistory p = pack_history(h);
  if (thin_record(block)) {
    if (slot != &Histories::other_read && set_thin_slot(block, slot == &Histories::write, p)) return;
    spill_thin_record(block);
  }
  PackedHistories *packed = packed_histories(block);
  if (slot == &Histories::write) packed->write = p;
  else if (slot == &Histories::read) packed->read = p;
  else packed->other_read = p;
}

// The side record of a block that went fine or was cut (or of a chunk).
struct BlockRefinement {
  HeapBlock *next_fine = nullptr;  // while free: the next free refinement
  HeapBlock *parent = nullptr;     // for a chunk: the block it was cut from
  // Once the block is cut (set before `fine`): its chunks, kChunkSize-aligned
  // pieces of [start, start + size), chunk i holding the addresses from
  // chunk_base + i * kChunkSize on. Each chunk is a record of its own, from
  // the block-record slabs (never unmapped), like every block record: the
  // fast path may read one while its block is being freed by a racing
  // thread.
  std::atomic<HeapBlock **> chunks{nullptr};
  uint32_t chunk_count = 0;
};

// The refinement with index `index`; null for 0 or an index the table never
// gave out (a dead record's).
BlockRefinement *refinement_at(uint32_t index);
SNAG_ALWAYS_INLINE BlockRefinement *refinement_of(const HeapBlock *block) {
  return refinement_at(block_refinement_index(block));
}
// A cut block's chunks and their number (null and 0 otherwise).
SNAG_ALWAYS_INLINE HeapBlock **block_chunks(const HeapBlock *block) {
  const BlockRefinement *r = refinement_of(block);
  return r ? r->chunks.load(std::memory_order_acquire) : nullptr;
}
SNAG_ALWAYS_INLINE uint32_t block_chunk_count(const HeapBlock *block) {
  const BlockRefinement *r = refinement_of(block);
  return r && r->chunks.load(std::memory_order_acquire) ? r->chunk_count : 0;
}

constexpr uintptr_t kChunkSize = uintptr_t(64) << 10;
SNAG_ALWAYS_INLINE uintptr_t chunk_base(const HeapBlock *b) { return b->start & ~(kChunkSize - 1); }

struct SplitGranule {
  IndirectType type = IndirectType::kSplit;
  std::atomic<uint64_t> state[kGranule];
  PackedHistories history[kGranule];
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

// The record tracking `addr` inside `block`: the chunk holding it when the
// block was cut into chunks, else the block itself.
SNAG_ALWAYS_INLINE HeapBlock *chunk_of(HeapBlock *block, uintptr_t addr) {
  if (!block->fine.load(std::memory_order_acquire)) return block;
  HeapBlock **chunks = block_chunks(block);
  if (!chunks || addr < block->start || addr >= block_end(block)) return block;
  return chunks[(addr - chunk_base(block)) / kChunkSize];
}

// The allocation a record belongs to (a chunk's block).
SNAG_ALWAYS_INLINE HeapBlock *allocation_of(HeapBlock *block) {
  if (!block->is_chunk) return block;
  const BlockRefinement *r = refinement_of(block);
  return r && r->parent ? r->parent : block;
}

// The slabs records come from, one per record size (heap_blocks.cpp), and
// a thread's cache keeps a list per slab: a thin record that spilled goes
// back to the thin slab.
enum RecordSlab : uint32_t { kPackedSlab = 0, kWideSlab = 1, kThinSlab = 2 };

// A thread's cache of block records, so that malloc/free pairs do not all
// meet at the runtime allocator's lock. Large enough for a burst of blocks
// that live together and then go (task_graph: each task builds 220 strings
// and a list of 220 nodes before it frees them): with 256, a fifth of its
// million blocks took their record from the shared free records and gave
// it back there, each under the records' lock that the pool's four
// threads share. At most 1,024 records of each kind per thread (48 to 112
// bytes each) wait here rather than in the shared list.
struct BlockCache {
  static constexpr uint32_t kCapacity = 1024;  // records of each kind
  struct List {
    HeapBlock *head = nullptr;
    uint32_t count = 0;
  };
  List lists[3];  // by RecordSlab
  // The shape of a new thin record (thin_shapes.h: its allocation stack,
  // nothing remembered yet) by allocation stack, so that an allocation
  // finds it without hashing (thread_local_heavy allocates at two stacks
  // in turn).
  struct NewShape {
    StackId stack = 0;
    uint32_t shape = 0;  // 0: none yet
  };
  static constexpr uint32_t kNewShapes = 16;
  NewShape new_shapes[kNewShapes];
};

// A free record's link (in stack_or_shape and thread_or_clock, see HeapBlock).
SNAG_ALWAYS_INLINE HeapBlock *next_free_record(const HeapBlock *record) {
  HeapBlock *next;
  __builtin_memcpy(&next, &record->stack_or_shape, sizeof next);
  return next;
}
SNAG_ALWAYS_INLINE void set_next_free_record(HeapBlock *record, HeapBlock *next) {
  __builtin_memcpy(&record->stack_or_shape, &next, sizeof next);
}

// The shape of a new thin record for a block allocated at `stack`; 0 when
// the shape table is full.
uint32_t new_block_shape_slowly(BlockCache &cache, StackId stack);
SNAG_ALWAYS_INLINE uint32_t new_block_shape(BlockCache &cache, StackId stack) {
  const BlockCache::NewShape &cached = cache.new_shapes[stack % BlockCache::kNewShapes];
  if (SNAG_UNLIKELY(cached.stack != stack || !cached.shape)) return new_block_shape_slowly(cache, stack);
  return cached.shape;
}

// A record for a new block. `may_be_thin` false: a packed record even for a
// block of at most kThinBlockBytes, for a block allocated under a lock
// (on_alloc), whose accesses are most likely locked too: it would spill at
// its first access, and the thin record and its spill together take 96
// bytes where a packed record takes 88 (lock_hash_map's bucket vectors).
HeapBlock *new_heap_block_slowly(BlockCache &cache, uintptr_t start, uintptr_t size, StackId stack,
                                 Tid thread, bool may_be_thin);
// The commonest case inline: a thin record from the thread's cache, its
// fields written straight (make_record's switch on the form, placement new
// and call cost about 60 instructions per block: task_graph allocates a
// million blocks of at most 64 bytes).
SNAG_ALWAYS_INLINE HeapBlock *new_heap_block(BlockCache &cache, uintptr_t start, uintptr_t size, StackId stack,
                                             Tid thread, bool may_be_thin = true) {
  BlockCache::List &list = cache.lists[kThinSlab];
  HeapBlock *b = list.head;
  if (SNAG_UNLIKELY(!may_be_thin || size > kThinBlockBytes || !b))
    return new_heap_block_slowly(cache, start, size, stack, thread, may_be_thin);
  const uint32_t shape = new_block_shape(cache, stack);
  if (SNAG_UNLIKELY(!shape)) return new_heap_block_slowly(cache, start, size, stack, thread, may_be_thin);
  list.head = next_free_record(b);
  --list.count;
  // The next allocation's record, whose link that one reads first: its
  // line is mostly cold by then (the thread's blocks were freed a task
  // ago), and that load missed on most of task_graph's million allocations
  // (race_bench.txt section 82). Fetched now, it arrives while this
  // allocation returns to the program.
  __builtin_prefetch(list.head, 1);
  // A cached thin record is kBlock, thin, coarse and not a chunk already
  // (delete_heap_block, take_record); its refinement index is 0
  // (drop_refinement).
  b->size_low = static_cast<uint32_t>(size);
  b->state.store(0, std::memory_order_relaxed);
  b->start = start;
  b->stack_or_shape = shape;
  b->thread_or_clock = 0;
  set_thin_record_thread(b, thread);
  return b;
}
// Switches a block (or chunk) to per-granule states (once; later calls, and
// calls for a block already cut into chunks, do nothing). Returns true for
// the caller that made the switch.
bool make_block_fine(HeapBlock *block);
// True for a block that a race suspicion cuts into chunks rather than
// making fine.
bool cut_into_chunks_first(const HeapBlock *block);
// Cuts a coarse block larger than a chunk into coarse chunks. Each chunk
// inherits what the block remembers of the accesses that touched it: those
// histories (clipped to the chunk) and a state from one of them, preferably
// `conflicting` (the access the caller's access raced with at block level,
// may be null); chunks no remembered access touched start Virgin. The block's own
// state becomes an Indirect word, so an access still working on it runs
// again on the chunk. Returns true for the caller that made the cut.
bool cut_block_into_chunks(HeapBlock *block, const History *conflicting);
// The allocation holding `addr`: from the shadow word when coarse, from the
// list of fine blocks otherwise. Never a chunk. Null for memory that is not
// a live heap block.
HeapBlock *find_heap_block(uintptr_t addr);
// The record that tracks `addr` right now: its chunk when its block was cut,
// else its block (coarse or fine). Null as for find_heap_block.
HeapBlock *find_tracking_block(uintptr_t addr);
// What delete_heap_block does for a block that went fine or was cut: its
// refinement and chunks given back.
void drop_block_refinement(HeapBlock *block);
// Hands a record to the shared free records (the thread's cache is full).
void give_back_heap_record(HeapBlock *record);
// Whether a state word owns records (state_records.h) a dead block's state
// must give back: a Shared-Modify2 word, or an Indirect one (a split
// granule; a coarse block's state is never a chunk pointer).
SNAG_ALWAYS_INLINE bool may_own_records(uint64_t w) {
  return kind_of(w) == Kind::kSharedModify2 || kind_of(w) == Kind::kIndirect;
}
// Frees `block`'s record into the thread's cache. Inline: most blocks are
// coarse, and their free is a few stores (a call per piece cost about 75
// instructions per block).
SNAG_ALWAYS_INLINE void delete_heap_block(BlockCache &cache, HeapBlock *block) {
  // The state cleared by a plain store where it owns no records (most
  // blocks: Exclusive to the freeing thread). An exchange is a locked
  // instruction, which waits for the free's shadow stores before it
  // (task_graph: ~12% of on_heap_hook's samples on it, section 82). Only
  // an access racing with the free can change the state between the load
  // and the store, and that access is a race with the free; a word owning
  // records is still exchanged, so that they are given back once.
  uint64_t old = block->state.load(std::memory_order_acquire);
  if (SNAG_UNLIKELY(may_own_records(old))) {
    old = block->state.exchange(0, std::memory_order_acq_rel);
    if (may_own_records(old)) retire_state_records(old);
  } else {
    block->state.store(0, std::memory_order_release);
  }
  // Only a block that went fine or was cut has a refinement, given before
  // `fine` is published: a coarse block's record (most of them) is freed
  // without reading its refinement index (a thin record's sits in its
  // slab's side array, a line of its own).
  if (SNAG_UNLIKELY(block->fine.load(std::memory_order_acquire))) drop_block_refinement(block);
  // A dead record is not fine: no reader of it asks for a refinement.
  block->fine.store(false, std::memory_order_relaxed);
  block->is_chunk = false;
  block->type = IndirectType::kBlock;
  block->start = 0;
  block->size_low = 0;
  const RecordForm form = record_form(block);
  RecordSlab slab = kPackedSlab;
  if (form == RecordForm::kWide) {
    record_tail(block, RecordForm::kWide)->size_high = 0;
    slab = kWideSlab;
  } else if (form != RecordForm::kPacked) {
    // A spilled thin record is thin again for its next block (its spill is
    // written afresh when that one spills).
    if (form == RecordForm::kThinSpilled)
      __atomic_store_n(&block->form, static_cast<uint8_t>(RecordForm::kThin), __ATOMIC_RELEASE);
    slab = kThinSlab;
  }
  BlockCache::List &list = cache.lists[slab];
  if (SNAG_UNLIKELY(list.count >= BlockCache::kCapacity)) {
    give_back_heap_record(block);
    return;
  }
  set_next_free_record(block, list.head);  // the cache's link is the free list's
  list.head = block;
  ++list.count;
}
// Frees the records a thread kept for reuse (the thread has ended).
void release_block_cache(BlockCache &cache);

}  // namespace snag::race
