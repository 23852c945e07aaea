// The race engine's fast-path state per thread, and the check the compiler
// pass calls before a loop that neither calls nor
// synchronizes (fast_path.h, compiler/plugin/LoopRanges.h): does every
// access the loop can make to a range need no work?
//
// A loop that sums a private buffer makes one hook call per element; when
// the buffer is this thread's Exclusive block or granules in the current
// epoch, each call would only confirm that. The thread's epoch and locks
// cannot change inside such a loop, and another thread that touches the
// range meanwhile still finds this thread's state and its clock there, so
// the race is still seen from that side. Asking once per loop entry keeps
// the answer of every call the loop would have made.
#include "engines/race/fast_path.h"

namespace snag::race {

namespace {

// A range this large is a wrapped or unknown bound, not a buffer.
constexpr uintptr_t kLargestRange = uintptr_t(1) << 40;

}  // namespace

SNAG_TLS FastPathThread t_fast_path;

bool locked_access_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w,
                                 const Histories &hs, bool write) {
  const FastPathThread &me = t_fast_path;
  if (lockset_of(w) != (write ? me.lockset_write : me.lockset_all)) return false;
  // The slot access_variable would remember this access in (history_slot).
  const History &slot = write ? hs.write
                              : (hs.read.site == 0 || hs.read.thread == me.tid ? hs.read : hs.other_read);
  if (slot.site == 0 || slot.thread != me.tid || slot.clock != me.now) return false;
  // Still the same state: no thread was rewriting the history meanwhile.
  return state.load(std::memory_order_acquire) == w;
}

bool locked_granule_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w, uintptr_t addr,
                                  bool write) {
  ShadowPage *page = find_shadow_page(addr);
  if (!page) return false;
  Histories *histories = page->history.load(std::memory_order_acquire);
  return histories && locked_access_needs_no_work(state, w, histories[cell_index(addr)], write);
}

bool range_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  if (!t_fast_path.epoch_word || size == 0 || size > kLargestRange) return false;
  const uintptr_t end = addr + size;
  if (end < addr) return false;
  for (uintptr_t g = addr & ~(kGranule - 1); g < end;) {
    std::atomic<uint64_t> *cell = find_cell(g);
    if (!cell) return false;
    uint64_t w = cell->load(std::memory_order_acquire);
    if (HeapBlock *block = block_of_granule(w, g)) {
      // A coarse block has one state for all of its bytes.
      if (block->fine.load(std::memory_order_acquire)) return false;
      if (!state_needs_no_work(block->state.load(std::memory_order_acquire), 0xff, write)) return false;
      uintptr_t block_end = block->start + block->size;
      if (block_end <= g) return false;  // a stale word: let the hooks look
      g = (block_end + kGranule - 1) & ~(kGranule - 1);
      continue;
    }
    uintptr_t lo = addr > g ? addr - g : 0;
    uintptr_t hi = end < g + kGranule ? end - g : kGranule;
    uint32_t touched = ((1u << hi) - 1) & ~((1u << lo) - 1);
    if (!state_needs_no_work(w, touched, write)) return false;
    g += kGranule;
  }
  return true;
}

}  // namespace snag::race
