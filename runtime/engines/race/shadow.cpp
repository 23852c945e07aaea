#include "engines/race/shadow.h"

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"
#include "engines/race/heap_blocks.h"
#include "engines/race/state.h"

namespace snag::race {

namespace detail {
std::atomic<ShadowPage *> *g_l1[kL1Size];
}  // namespace detail

namespace {

using detail::g_l1;
using detail::kL1Size;
using detail::kL2Bits;
using detail::kL2Size;

SpinLock g_grow_lock;
std::atomic<uint64_t> g_bytes{0};

// Page headers and cell arrays come from large mappings carved in order and
// never returned: memory that is freed keeps its shadow, reset to Virgin.
struct Arena {
  char *next = nullptr;
  size_t left = 0;
  void *take(size_t size) {  // under g_grow_lock
    if (left < size) {
      size_t chunk = 64ull << 20;
      next = static_cast<char *>(map_pages(chunk));
      left = chunk;
    }
    void *p = next;
    next += size;
    left -= size;
    g_bytes.fetch_add(size, std::memory_order_relaxed);
    return p;
  }
};
Arena g_headers, g_cells;

}  // namespace

ShadowPage *shadow_page(uintptr_t addr) {
  if (ShadowPage *page = find_shadow_page(addr)) return page;
  uint64_t page_number = addr >> 12;
  uint64_t i1 = (page_number >> kL2Bits) & (kL1Size - 1);
  uint64_t i2 = page_number & (kL2Size - 1);
  SpinLockGuard guard(g_grow_lock);
  std::atomic<ShadowPage *> *l2 = __atomic_load_n(&g_l1[i1], __ATOMIC_ACQUIRE);
  if (!l2) {
    l2 = static_cast<std::atomic<ShadowPage *> *>(map_pages(sizeof(void *) * kL2Size));
    __atomic_store_n(&g_l1[i1], l2, __ATOMIC_RELEASE);
  }
  ShadowPage *page = l2[i2].load(std::memory_order_acquire);
  if (!page) {
    page = static_cast<ShadowPage *>(g_headers.take(sizeof(ShadowPage)));
    l2[i2].store(page, std::memory_order_release);
  }
  return page;
}

std::atomic<uint64_t> *shadow_cells(ShadowPage *page) {
  std::atomic<uint64_t> *cells = page->cells.load(std::memory_order_acquire);
  if (SNAG_LIKELY(cells)) return cells;
  SpinLockGuard guard(g_grow_lock);
  cells = page->cells.load(std::memory_order_acquire);
  if (!cells) {
    cells = static_cast<std::atomic<uint64_t> *>(g_cells.take(sizeof(uint64_t) * kCellsPerPage));
    page->cells.store(cells, std::memory_order_release);
  }
  return cells;
}

Histories *shadow_history(ShadowPage *page, uintptr_t addr) {
  Histories *h = page->history.load(std::memory_order_acquire);
  if (SNAG_UNLIKELY(!h)) {
    auto *fresh = internal_new_array<Histories>(kCellsPerPage);
    if (page->history.compare_exchange_strong(h, fresh, std::memory_order_acq_rel)) {
      h = fresh;
      g_bytes.fetch_add(sizeof(Histories) * kCellsPerPage, std::memory_order_relaxed);
    } else {
      internal_free(fresh);
    }
  }
  return &h[cell_index(addr)];
}

void shadow_mark_block(uintptr_t begin, uintptr_t end, HeapBlock *block) {
  uint64_t word = pointer_word(Kind::kIndirect, block);
  for (uintptr_t page_start = begin & ~(kPageSize - 1); page_start < end; page_start += kPageSize) {
    ShadowPage *page = shadow_page(page_start);
    if (begin <= page_start && page_start + kPageSize <= end) {
      // Granule states left from earlier blocks must not outlive this one's
      // coarse phase: the page starts fresh.
      if (std::atomic<uint64_t> *cells = page->cells.load(std::memory_order_acquire))
        for (uint32_t i = 0; i < kCellsPerPage; ++i) cells[i].store(0, std::memory_order_relaxed);
      page->block.store(block, std::memory_order_release);
      continue;
    }
    std::atomic<uint64_t> *cells = shadow_cells(page);
    uintptr_t lo = begin > page_start ? begin : page_start;
    uintptr_t hi = end < page_start + kPageSize ? end : page_start + kPageSize;
    for (uint32_t i = cell_index(lo); i <= cell_index(hi - 1); ++i)
      cells[i].store(word, std::memory_order_relaxed);
  }
}

void shadow_clear(uintptr_t begin, uintptr_t end) {
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t page_start, uint32_t lo, uint32_t hi) {
    if (begin <= page_start && page_start + kPageSize <= end)
      page->block.store(nullptr, std::memory_order_release);
    if (std::atomic<uint64_t> *cells = page->cells.load(std::memory_order_acquire))
      for (uint32_t i = lo; i < hi; ++i) cells[i].store(0, std::memory_order_relaxed);
    if (Histories *h = page->history.load(std::memory_order_acquire))
      fill_bytes(h + lo, 0, sizeof(Histories) * (hi - lo));
  });
}

uint64_t shadow_bytes() { return g_bytes.load(std::memory_order_relaxed); }

}  // namespace snag::race
