// Shadow memory for the race engine.
//
// Application memory is shadowed page by page (4 KiB), found through a
// two-level table indexed by the page number, so untouched memory costs
// nothing and no fixed address-space layout is needed. A page's shadow is
// one of:
//   - a heap block that covers the whole page and is tracked coarsely: one
//     state for the block (RaceTrack's object level), nothing per granule;
//   - one 64-bit state word per 8-byte granule (cells), made on demand, plus
//     a history entry per granule remembering the last access (for the
//     "previous access" side of a report), also made on demand.
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/stack.h"
#include "core/thread_state.h"
#include "engines/race/lockset.h"

namespace snag::race {

constexpr uintptr_t kGranule = 8;
constexpr uintptr_t kPageSize = 4096;
constexpr uint32_t kCellsPerPage = kPageSize / kGranule;

struct HeapBlock;

// The last access recorded for a granule (or byte, or heap block).
struct History {
  snag_site_t site;     // 0: nothing recorded
  StackId stack;        // the calling context (the site is the top frame)
  LocksetId lockset;    // locks held (write-mode locks for a write)
  uint32_t thread;      // logical thread id
  uint32_t clock;       // that thread's clock at the access
  uint32_t offset;      // first byte, relative to the variable's base
  uint16_t size;        // bytes (capped at 65535)
  uint8_t write;
};

// A variable remembers its last write and its last read separately: a read
// conflicts only with writes, a write with both.
struct Histories {
  History read;
  History write;
};

struct ShadowPage {
  std::atomic<HeapBlock *> block;             // coarse block covering the page
  std::atomic<std::atomic<uint64_t> *> cells; // kCellsPerPage state words
  std::atomic<Histories *> history;           // kCellsPerPage entries
  std::atomic<uint32_t> sync_objects;         // synchronization objects here
};

// The table's lookup, inlined into the access path.
namespace detail {
constexpr int kL2Bits = 18;
constexpr uint64_t kL1Size = 1ull << 17;
constexpr uint64_t kL2Size = 1ull << kL2Bits;
extern std::atomic<ShadowPage *> *g_l1[kL1Size];
}  // namespace detail

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

// The page's state words, created (all Virgin) if needed.
std::atomic<uint64_t> *shadow_cells(ShadowPage *page);
// The histories of the granule at `addr`, created if needed.
Histories *shadow_history(ShadowPage *page, uintptr_t addr);

// Marks [begin, end) as heap block `block` (coarse): whole pages point at the
// block, granules of partial pages get an Indirect word.
void shadow_mark_block(uintptr_t begin, uintptr_t end, HeapBlock *block);
// Makes [begin, end) start fresh (Virgin, no history, no block).
void shadow_clear(uintptr_t begin, uintptr_t end);

// Calls f(page, first_index, last_index_exclusive) for every existing shadow
// page overlapping [begin, end).
template <typename F>
void for_each_shadow_page(uintptr_t begin, uintptr_t end, F f) {
  for (uintptr_t page_start = begin & ~(kPageSize - 1); page_start < end; page_start += kPageSize) {
    ShadowPage *page = find_shadow_page(page_start);
    if (!page) continue;
    uintptr_t lo = begin > page_start ? begin : page_start;
    uintptr_t hi = end < page_start + kPageSize ? end : page_start + kPageSize;
    f(page, page_start, cell_index(lo), cell_index(hi - 1) + 1);
  }
}

// Bytes of shadow in use.
uint64_t shadow_bytes();

}  // namespace snag::race
