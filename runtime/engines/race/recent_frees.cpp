// The recent-frees table (recent_frees.h): its entries, and a report's lookup.
#include "engines/race/recent_frees.h"

#include <atomic>

#include "engines/race/access_stacks.h"

namespace snag::race {

RecentFree g_recent_frees[kRecentFrees];

bool recall_free(uintptr_t addr, uint32_t slot, uint32_t clock, uintptr_t base, uintptr_t size, History *out) {
  const uint64_t when = (uint64_t(slot) << 32 | clock) + 1;
  for (RecentFree &e : g_recent_frees) {
    if (e.when.load(std::memory_order_acquire) != when) continue;
    const uintptr_t start = e.start.load(std::memory_order_relaxed);
    const uintptr_t end = start + e.size.load(std::memory_order_relaxed);
    const snag_site_t site = e.site.load(std::memory_order_relaxed);
    StackTrace callers;
    callers.depth = 0;
    for (auto &caller : e.callers)
      if (snag_site_t s = caller.load(std::memory_order_relaxed)) callers.frames[callers.depth++] = s;
    std::atomic_thread_fence(std::memory_order_acquire);
    if (e.when.load(std::memory_order_relaxed) != when || addr < start || addr >= end) continue;
    // The free wrote the whole block: shown as its write of the variable.
    const uintptr_t lo = start > base ? start : base;
    const uintptr_t hi = end < base + size ? end : base + size;
    *out = History{};
    out->stack = intern_access_stack(site, depot_put(callers));
    out->lockset = kEmptyLockset;
    out->thread = slot;
    out->clock = clock;
    out->offset = static_cast<uint32_t>(lo - base);
    out->size = static_cast<uint16_t>(hi - lo);
    out->write = 1;
    return true;
  }
  return false;
}

}  // namespace snag::race
