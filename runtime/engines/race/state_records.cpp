#include "engines/race/state_records.h"

#include <atomic>

#include "core/internal_alloc.h"
#include "core/quarantine.h"
#include "engines/race/heap_blocks.h"
#include "engines/race/shadow.h"
#include "engines/race/state.h"

namespace snag::race {

namespace {

Quarantine<4096> g_quarantine;

void quarantine(void *record) { internal_free(g_quarantine.push(record)); }

bool owns_record(uint64_t word) {
  if (kind_of(word) == Kind::kSharedModify2) return true;
  return kind_of(word) == Kind::kIndirect && indirect_type(word) == IndirectType::kSplit;
}

}  // namespace

void retire_state_records(uint64_t word) {
  if (!owns_record(word)) return;
  if (kind_of(word) == Kind::kIndirect) {
    // The bytes' words are taken too, so that a thread finishing an access
    // to one of them cannot give its record back as well.
    auto *split = static_cast<SplitGranule *>(pointer_of(word));
    for (std::atomic<uint64_t> &byte : split->state) {
      const uint64_t w = byte.exchange(0, std::memory_order_acq_rel);
      if (kind_of(w) == Kind::kSharedModify2) quarantine(pointer_of(w));
    }
  }
  quarantine(pointer_of(word));
}

void note_state_record(uintptr_t addr) {
  ShadowPage *page = find_shadow_page(addr);
  if (page && !page->state_records.load(std::memory_order_relaxed))
    page->state_records.store(1, std::memory_order_relaxed);
}

void release_state_records(ShadowPage *page, uintptr_t page_start, uint32_t lo, uint32_t hi) {
  if (!page->state_records.load(std::memory_order_relaxed)) return;
  // A whole page's words are all taken here. (A word made meanwhile by a
  // thread still using the freed memory only stays allocated.)
  if (lo == 0 && hi == kCellsPerPage) page->state_records.store(0, std::memory_order_relaxed);
  std::atomic<uint64_t> *cells = find_cell(page_start);
  if (!cells) return;
  for (uint32_t c = lo; c < hi; ++c) {
    const uint64_t w = cells[c].load(std::memory_order_relaxed);
    uint64_t expected = w;
    if (owns_record(w) && cells[c].compare_exchange_strong(expected, 0, std::memory_order_acq_rel))
      retire_state_records(w);
  }
}

uint64_t state_records_retired() { return g_quarantine.pushed(); }

}  // namespace snag::race
