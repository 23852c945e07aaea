// Shadow memory for the race engine.
//
// State words (one 64-bit word per 8-byte granule) are direct-mapped, so that
// the access fast path finds one with a table load and an add, the way
// ThreadSanitizer's arithmetic shadow mapping does, without assuming a fixed
// address-space layout: the address space is cut into 512 GiB slots, and the
// first time a slot needs shadow the runtime reserves (without committing)
// one region holding the state words of the whole slot. Only shadow pages
// that are written cost memory, and shadow of freed memory is given back.
//
// The rest of a page's shadow is found through a two-level table indexed by
// the page number (slow paths only):
//   - a heap block that covers the whole page and is tracked coarsely: one
//     state for the block (RaceTrack's object level); the page's state words
//     point at the block (an Indirect word) once the fast path should see it;
//   - the histories of each granule that has some (the last accesses, for
//     the "previous access" side of a report), made on demand per granule:
//     the page keeps a 32-bit index per granule into a pool of histories,
//     2 KiB per page instead of all 512 granules' histories (24 KiB), which
//     a page whose data went fine paid even when few of its granules were
//     ever used (lock_hash_map's bucket array: mutexes and vectors).
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/stack.h"
#include "core/thread_state.h"
#include "engines/race/lockset.h"
#include "engines/race/state.h"

namespace snag::race {

constexpr uintptr_t kGranule = 8;
constexpr uintptr_t kPageSize = 4096;
constexpr uint32_t kCellsPerPage = kPageSize / kGranule;

struct HeapBlock;

// The last access recorded for a granule (or byte, or heap block). 24 bytes:
// the access's site and calling context are one interned id
// (access_stacks.h) rather than an 8-byte site and a context id. This is
// the form the state machine and reports read, and a large block keeps;
// granules, bytes and blocks of at most 1 KiB keep it packed in 16
// (PackedHistory, below).
struct History {
  uint32_t stack;       // intern_access_stack(site, context); 0: nothing recorded
  LocksetId lockset;    // locks held (write-mode locks for a write)
  uint32_t thread;      // logical thread id
  uint32_t clock;       // that thread's clock at the access
  uint32_t offset;      // first byte, relative to the variable's base
  uint16_t size;        // bytes (capped at 65535)
  uint8_t write;
};
static_assert(sizeof(History) == 24, "a granule's histories stay small");

// A variable remembers its last write and its reads separately: a read
// conflicts only with writes, a write with both. Reads by two different
// threads are kept: with one read slot, thread B's unlocked read that made
// the variable Shared-Read was lost behind thread A's own earlier read, and
// A's later write under a lock found no concurrent read (double-checked
// locking missed when both threads checked before A initialized).
struct Histories {
  History read;        // the first thread's read (or its latest)
  History other_read;  // a read by a thread other than `read`'s
  History write;
};

// Where thread `me` remembers an access: a write in `write`; a read in
// `read` when that slot is free or already its own, else in `other_read`
// (replacing a third thread's read there: the latest read by a thread other
// than the first is kept).
inline History &history_slot(Histories &hs, bool write, Tid me) {
  if (write) return hs.write;
  return hs.read.stack == 0 || hs.read.thread == me ? hs.read : hs.other_read;
}
inline const History &history_slot(const Histories &hs, bool write, Tid me) {
  return history_slot(const_cast<Histories &>(hs), write, me);
}

// How histories are kept for a variable of at most 1 KiB (a granule, a byte
// of a split granule, a heap block or chunk of up to 1 KiB): 16 bytes each,
// 48 for the three, not 24 and 72. Offset and size - 1 within such a
// variable fit 10 bits each: their low 6 bits beside the thread's 20 (as
// in a state word: ids wrap after a million threads), their high 4 bits
// each above the lockset id's 24 (lockset.h: ids stay below 1 << 24). The
// write bit is the slot's: a write is only ever remembered in `write`, a
// read in `read` or `other_read`. The state machine reads them unpacked
// (Variable's copy, race_engine.h); they are packed again when a slot is
// written. Up to 64 bytes (race-mem4's first form) a program's small
// objects were packed, but a hash map's bucket vectors (lock_hash_map: 128
// B to 1 KiB) kept 112-byte records from a slab of their own, and the
// records their first, smaller sizes had left stayed there unused.
constexpr uintptr_t kPackedVariableBytes = 1024;
constexpr uint32_t kPackedThreadMask = (1u << 20) - 1;
constexpr uint32_t kPackedLowBits = 6;   // of offset and size - 1, in `where`
constexpr uint32_t kPackedHighBits = 4;  // of offset and size - 1, in `lockset_high`
static_assert(kPackedVariableBytes == 1u << (kPackedLowBits + kPackedHighBits), "offset and size fit");
static_assert(kLocksetIdBits + 2 * kPackedHighBits == 32, "the lockset word is full");
struct PackedHistory {
  uint32_t stack;         // as History::stack; 0: nothing recorded
  uint32_t lockset_high;  // lockset id (bits 0-23), offset's high bits (24-27), size - 1's (28-31)
  uint32_t clock;
  uint32_t where;         // thread (bits 0-19), offset's low bits (20-25), size - 1's (26-31)
};
static_assert(sizeof(PackedHistory) == 16, "a small variable's history stays small");
struct PackedHistories {
  PackedHistory read;
  PackedHistory other_read;
  PackedHistory write;
};

// The packed entry of an access of `size` bytes at `offset` (offset below
// kPackedVariableBytes, size from 1 to kPackedVariableBytes: no clamps), for
// the renewal path (race_access.cpp, RaceEngine::renew), which knows both
// fit and builds the slot straight from what it has.
SNAG_ALWAYS_INLINE PackedHistory pack_entry(uint32_t stack, LocksetId lockset, uint32_t thread, uint32_t clock,
                                            uint32_t offset, uint32_t size) {
  constexpr uint32_t kLow = (1u << kPackedLowBits) - 1;
  const uint32_t last = size - 1;
  return PackedHistory{
      stack,
      (lockset & ((1u << kLocksetIdBits) - 1)) | (offset >> kPackedLowBits) << kLocksetIdBits |
          (last >> kPackedLowBits) << (kLocksetIdBits + kPackedHighBits),
      clock, (thread & kPackedThreadMask) | (offset & kLow) << 20 | (last & kLow) << 26};
}
// The unpacked entry of an access, its size capped to a History's 16 bits.
SNAG_ALWAYS_INLINE History history_entry(uint32_t stack, LocksetId lockset, uint32_t thread, uint32_t clock,
                                         uint32_t offset, uintptr_t size, bool write) {
  History h{};
  h.stack = stack;
  h.lockset = lockset;
  h.thread = thread;
  h.clock = clock;
  h.offset = offset;
  h.size = static_cast<uint16_t>(size > 0xffff ? 0xffff : size);
  h.write = write;
  return h;
}
inline PackedHistory pack_history(const History &h) {
  uint32_t size = h.size == 0 ? 1 : h.size > kPackedVariableBytes ? kPackedVariableBytes : h.size;
  uint32_t offset = h.offset < kPackedVariableBytes ? h.offset : kPackedVariableBytes - 1;
  return pack_entry(h.stack, h.lockset, h.thread, h.clock, offset, size);
}
// A packed entry's offset and size, as unpack_history gives them.
SNAG_ALWAYS_INLINE uint32_t packed_offset(const PackedHistory &p) {
  constexpr uint32_t kLow = (1u << kPackedLowBits) - 1, kHigh = (1u << kPackedHighBits) - 1;
  return ((p.where >> 20) & kLow) | ((p.lockset_high >> kLocksetIdBits) & kHigh) << kPackedLowBits;
}
SNAG_ALWAYS_INLINE uint32_t packed_size(const PackedHistory &p) {
  constexpr uint32_t kLow = (1u << kPackedLowBits) - 1;
  return (((p.where >> 26) & kLow) | (p.lockset_high >> (kLocksetIdBits + kPackedHighBits)) << kPackedLowBits) + 1;
}
inline History unpack_history(const PackedHistory &p, bool write) {
  constexpr uint32_t kLow = (1u << kPackedLowBits) - 1, kHigh = (1u << kPackedHighBits) - 1;
  History h{};
  h.stack = p.stack;
  h.lockset = p.lockset_high & ((1u << kLocksetIdBits) - 1);
  h.thread = p.where & kPackedThreadMask;
  h.clock = p.clock;
  h.offset = ((p.where >> 20) & kLow) | ((p.lockset_high >> kLocksetIdBits) & kHigh) << kPackedLowBits;
  h.size = static_cast<uint16_t>(
      (((p.where >> 26) & kLow) | (p.lockset_high >> (kLocksetIdBits + kPackedHighBits)) << kPackedLowBits) + 1);
  h.write = write;
  return h;
}
// An empty slot unpacks as all zero (History{}), as a wide one reads.
inline void unpack_histories(const PackedHistories &p, Histories *out) {
  out->read = p.read.stack ? unpack_history(p.read, false) : History{};
  out->other_read = p.other_read.stack ? unpack_history(p.other_read, false) : History{};
  out->write = p.write.stack ? unpack_history(p.write, true) : History{};
}
inline uint32_t slot_thread(const PackedHistory &p) { return p.where & kPackedThreadMask; }
// history_slot for packed histories.
inline PackedHistory &history_slot(PackedHistories &hs, bool write, Tid me) {
  if (write) return hs.write;
  return hs.read.stack == 0 || slot_thread(hs.read) == (me & kPackedThreadMask) ? hs.read : hs.other_read;
}
inline const PackedHistory &history_slot(const PackedHistories &hs, bool write, Tid me) {
  return history_slot(const_cast<PackedHistories &>(hs), write, me);
}

struct SyncChains;  // sync_vars.cpp

struct ShadowPage {
  std::atomic<HeapBlock *> block;             // coarse block covering the page
  // Per granule (kCellsPerPage entries): its histories' index in the
  // history pool, 0 while it has none. Null until a granule needs one.
  std::atomic<std::atomic<uint32_t> *> history;
  std::atomic<uint32_t> sync_objects;         // synchronization objects here
  // Set while a granule here may own a record (state_records.h).
  std::atomic<uint32_t> state_records;
  // Their chains, one per 16 bytes; null until the page's first.
  std::atomic<SyncChains *> sync_chains;
};

// The tables' lookups, inlined into the access path.
namespace detail {
constexpr int kL2Bits = 18;
constexpr uint64_t kL1Size = 1ull << 17;
constexpr uint64_t kL2Size = 1ull << kL2Bits;
extern std::atomic<ShadowPage *> *g_l1[kL1Size];

constexpr int kSlotBits = 39;                  // 512 GiB of application memory
constexpr uintptr_t kSlotCount = 1u << (47 - kSlotBits);  // the 47-bit user address space
// The history pool: chunk i holds the histories with indices from
// i << kHistoryChunkBits on (index 0 is never given out: "none").
constexpr uint32_t kHistoryChunkBits = 16;
constexpr uint32_t kHistoryChunks = 1u << (32 - kHistoryChunkBits);
extern PackedHistories *g_history_chunks[kHistoryChunks];

// Per slot: (address of the slot's state words) - (slot's first address), so
// that a granule's state word is at (granule address + offset); 0 while the
// slot has no shadow.
// Named __snag_slot_offset for the check the compiler pass inlines
// (include/snag/race_fast_path.h).
extern __attribute__((visibility("default"))) std::atomic<uintptr_t> g_slot_offset[kSlotCount] __asm__(
    "__snag_slot_offset");
}  // namespace detail

// The state word of the granule holding `addr`, if its slot has shadow (no
// reservation, no system call). Null also for addresses above 47 bits, which
// the race engine does not track.
SNAG_ALWAYS_INLINE std::atomic<uint64_t> *find_cell(uintptr_t addr) {
  uintptr_t slot = addr >> detail::kSlotBits;
  if (SNAG_UNLIKELY(slot >= detail::kSlotCount)) return nullptr;
  uintptr_t offset = detail::g_slot_offset[slot].load(std::memory_order_acquire);
  if (SNAG_UNLIKELY(!offset)) return nullptr;
  return reinterpret_cast<std::atomic<uint64_t> *>((addr & ~(kGranule - 1)) + offset);
}

// The state word of `addr`'s granule, reserving the slot's shadow if needed.
// Null only for addresses above 47 bits.
std::atomic<uint64_t> *shadow_cell(uintptr_t addr);

// The shadow page of `addr` if it exists (no allocation).
SNAG_ALWAYS_INLINE ShadowPage *find_shadow_page(uintptr_t addr) {
  uint64_t page_number = addr >> 12;
  std::atomic<ShadowPage *> *l2 = __atomic_load_n(
      &detail::g_l1[(page_number >> detail::kL2Bits) & (detail::kL1Size - 1)], __ATOMIC_ACQUIRE);
  return l2 ? l2[page_number & (detail::kL2Size - 1)].load(std::memory_order_acquire) : nullptr;
}

// The shadow page of `addr`, created if needed.
ShadowPage *shadow_page(uintptr_t addr);

SNAG_ALWAYS_INLINE uint32_t cell_index(uintptr_t addr) {
  return static_cast<uint32_t>((addr & (kPageSize - 1)) / kGranule);
}

// Blocks below this size get a state word per granule touched (one word
// per 8 bytes at most, given back at free); larger ones keep none on their
// whole pages (fast_path.h, untouched_granule_needs_no_work). 16 KiB, not
// 1 MiB: a shadow page costs as much memory as the application page it
// shadows, and mid-sized arrays a thread reads at random (an
// unordered_map's bucket array, 166 KB per thread in thread_local_heavy)
// or in loops (its 40 KB thread_local scratch vector) had a resident
// shadow page for every page they touched. Their accesses find the block
// through its page instead (untouched_access_needs_no_work, in the hooks:
// a few loads more) or from the remembered blocks.
constexpr uintptr_t kWordsWrittenBelow = uintptr_t(16) << 10;

// What resetting shadow does with the memory of whole shadow pages: give it
// back to the system (freed and unmapped memory, from 1 MiB on; from
// kWordsWrittenBelow on when half of its pages, four or more, hold words), or
// keep it and zero only the pages that are in memory (smaller ranges, and a
// new thread's stack: the stack is reused, and giving its shadow back costs
// a TLB shootdown per thread).
enum class ShadowMemory { kGiveBack, kKeep };

// The histories with pool index `index` (not 0).
SNAG_ALWAYS_INLINE PackedHistories *history_at(uint32_t index) {
  return detail::g_history_chunks[index >> detail::kHistoryChunkBits] +
         (index & ((1u << detail::kHistoryChunkBits) - 1));
}

// A granule whose only accesses so far are the lock and unlock hooks' reads
// of a mutex's first byte keeps the last of them alone, 16 bytes in a pool
// of its own, not three slots of the history pool (48): its index entry is
// that entry's index with this bit set, and its state word stays Virgin
// (race_access.cpp, touch_lock_quietly). A granule of 10,000 accounts'
// mutexes (lock_pairs) holds no other access. The first access of any
// other kind (shadow_history) turns the entry into the granule's histories
// (the touch in `read`) and its state into the toucher's Exclusive0, which
// is what the state machine would have made of the touch, for a last
// toucher the lock orders after every earlier one (race_bench.txt section
// 87).
constexpr uint32_t kLockTouchTag = 1u << 31;

// The lock touch with (untagged) index `index`.
PackedHistory *lock_touch_at(uint32_t index);

// The histories of the granule at `addr` on `page`, if it has any (no
// allocation). None for a granule holding a lock touch alone.
SNAG_ALWAYS_INLINE PackedHistories *find_history(const ShadowPage *page, uintptr_t addr) {
  const std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
  if (!index) return nullptr;
  uint32_t i = index[cell_index(addr)].load(std::memory_order_acquire);
  return i && !(i & kLockTouchTag) ? history_at(i) : nullptr;
}

// Whether the granule at `addr` on `page` has histories or a lock touch.
SNAG_ALWAYS_INLINE bool has_history_or_touch(const ShadowPage *page, uintptr_t addr) {
  const std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
  return index && index[cell_index(addr)].load(std::memory_order_acquire) != 0;
}

// The lock touch the granule at `addr` on `page` keeps alone, if it does.
SNAG_ALWAYS_INLINE PackedHistory *find_lock_touch(const ShadowPage *page, uintptr_t addr) {
  const std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
  if (!index) return nullptr;
  uint32_t i = index[cell_index(addr)].load(std::memory_order_acquire);
  return i & kLockTouchTag ? lock_touch_at(i & ~kLockTouchTag) : nullptr;
}

// The state a lock touch stands for once something else touches its granule:
// its reader's Exclusive0, as the state machine makes a first read.
SNAG_ALWAYS_INLINE uint64_t lock_touch_state(const PackedHistory &touch) {
  return exclusive_word(Kind::kExclusive0, slot_thread(touch), touch.clock, false,
                        1u << (packed_offset(touch) % kGranule));
}

// The index entry of the granule at `addr` on `page` (the page's index
// array made if needed).
std::atomic<uint32_t> &history_index_entry(ShadowPage *page, uintptr_t addr);
// A lock touch's entry from the pool, tagged (kLockTouchTag), and back.
uint32_t take_lock_touch();
void give_back_lock_touch(uint32_t tagged);

// Sets the state words of the granules in [begin, end) to Virgin.
void shadow_reset_cells(uintptr_t begin, uintptr_t end, ShadowMemory memory = ShadowMemory::kGiveBack);
// The histories of the granule at `addr`, created if needed.
PackedHistories *shadow_history(ShadowPage *page, uintptr_t addr);

// Writes `word` into `count` consecutive state words from `cells` on (of
// one page: they are contiguous). Straight stores for up to eight (a block
// of up to 64 bytes, most of a program's), where a loop cost about 40
// instructions per block at each malloc and each free.
SNAG_ALWAYS_INLINE void fill_cells(std::atomic<uint64_t> *cells, uintptr_t count, uint64_t word) {
  switch (count) {
    default:
      for (uintptr_t i = 8; i < count; ++i) cells[i].store(word, std::memory_order_relaxed);
      [[fallthrough]];
    case 8: cells[7].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 7: cells[6].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 6: cells[5].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 5: cells[4].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 4: cells[3].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 3: cells[2].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 2: cells[1].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 1: cells[0].store(word, std::memory_order_relaxed); [[fallthrough]];
    case 0: break;
  }
}
// The number of granules [begin, end) touches (end > begin).
SNAG_ALWAYS_INLINE uintptr_t granules_of(uintptr_t begin, uintptr_t end) {
  return ((end - 1) / kGranule) - (begin / kGranule) + 1;
}
// Whether [begin, end) (end > begin) lies inside one page and is not all of it.
SNAG_ALWAYS_INLINE bool inside_one_page(uintptr_t begin, uintptr_t end) {
  return end - begin < kPageSize && ((begin ^ (end - 1)) & ~(kPageSize - 1)) == 0;
}

// A block other than `block` that the page of `addr` still points at, as
// covering it whole, is dead (its free was not seen: freed inside the
// runtime, or by libc itself): `block`, marked on part of that page, must
// be the one found there, not that one.
SNAG_ALWAYS_INLINE void forget_dead_page_block(uintptr_t addr, const HeapBlock *block) {
  if (ShadowPage *page = find_shadow_page(addr)) {
    HeapBlock *stale = page->block.load(std::memory_order_acquire);
    if (SNAG_UNLIKELY(stale && stale != block)) page->block.compare_exchange_strong(stale, nullptr);
  }
}

// Marks [begin, end) as heap block `block` (coarse): whole pages point at the
// block, granules of partial pages get an Indirect word.
void shadow_mark_block_slowly(uintptr_t begin, uintptr_t end, HeapBlock *block);
// The same, inline for a block inside one page whose slot has shadow (the
// commonest malloc): its granules get the block's word, and a dead block
// its page still points at (shadow_mark_block_slowly) is forgotten.
SNAG_ALWAYS_INLINE void shadow_mark_block(uintptr_t begin, uintptr_t end, HeapBlock *block) {
  std::atomic<uint64_t> *cells;
  if (SNAG_UNLIKELY(!inside_one_page(begin, end) || !(cells = find_cell(begin)))) {
    shadow_mark_block_slowly(begin, end, block);
    return;
  }
  forget_dead_page_block(begin, block);
  fill_cells(cells, granules_of(begin, end), pointer_word(Kind::kIndirect, block));
}
// Makes [begin, end) start fresh (Virgin, no history, no block). The
// granules' histories go back to the pool.
void shadow_clear(uintptr_t begin, uintptr_t end, ShadowMemory memory = ShadowMemory::kGiveBack);

// What shadow_clear(begin, end) and then writing `word` into the state of
// every granule of [begin, end) do, in one walk, for a range inside one
// application page whose shadow page is `page` (null: it has none): the
// granules' histories go back to the pool, the page forgets its block when
// the range is all of it. A freed small block (race_events.cpp, on_free)
// walked its granules three times before: to clear their words, to give
// back their histories, to write the freeing thread's word.
void shadow_free_in_page(ShadowPage *page, uintptr_t begin, uintptr_t end, uint64_t word);

// Gives back the histories of granules first..last (indices, inclusive) of
// `page` that have some.
void give_back_granule_histories(ShadowPage *page, uint32_t first, uint32_t last);
// The same, inline while none has any (a coarse block's granules keep
// none: its histories are in its record).
SNAG_ALWAYS_INLINE void forget_granule_histories(ShadowPage *page, uint32_t first, uint32_t last) {
  const std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
  if (!index) return;
  uint32_t any = 0;
  for (uint32_t c = first; c <= last; ++c) any |= index[c].load(std::memory_order_relaxed);
  if (SNAG_UNLIKELY(any)) give_back_granule_histories(page, first, last);
}

// Calls f(page, page_start, first_index, last_index_exclusive) for every
// existing shadow page overlapping [begin, end). Most pages of a large range
// (a thread's 8 MiB stack, a freed buffer) have none: a table that does not
// exist is skipped whole, and eight empty entries (one cache line) at once,
// where looking each page up took most of a short-lived thread's start.
template <typename F>
void for_each_shadow_page(uintptr_t begin, uintptr_t end, F f) {
  constexpr uintptr_t kTableSpan = detail::kL2Size * kPageSize;  // application bytes per table
  for (uintptr_t page_start = begin & ~(kPageSize - 1); page_start < end;) {
    const uintptr_t table_end = (page_start & ~(kTableSpan - 1)) + kTableSpan;
    const uintptr_t stop = end < table_end ? end : table_end;
    std::atomic<ShadowPage *> *l2 =
        __atomic_load_n(&detail::g_l1[(page_start / kTableSpan) & (detail::kL1Size - 1)], __ATOMIC_ACQUIRE);
    if (!l2) {
      page_start = stop;
      continue;
    }
    for (; page_start < stop; page_start += kPageSize) {
      const uint64_t i = (page_start / kPageSize) & (detail::kL2Size - 1);
      if ((i & 7) == 0 && page_start + 8 * kPageSize <= stop) {
        uintptr_t any = 0;
        for (uint64_t k = 0; k < 8; ++k) any |= reinterpret_cast<uintptr_t>(l2[i + k].load(std::memory_order_relaxed));
        if (!any) {
          page_start += 7 * kPageSize;
          continue;
        }
      }
      ShadowPage *page = l2[i].load(std::memory_order_acquire);
      if (!page) continue;
      uintptr_t lo = begin > page_start ? begin : page_start;
      uintptr_t hi = end < page_start + kPageSize ? end : page_start + kPageSize;
      f(page, page_start, cell_index(lo), cell_index(hi - 1) + 1);
    }
  }
}

}  // namespace snag::race
