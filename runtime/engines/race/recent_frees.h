// The last frees of small heap blocks, so that a race with a free found
// after it -- another thread's access the free is not ordered before -- is
// reported with the free as its other side, as ThreadSanitizer reports it.
// A freed block's granules keep only the freeing thread's word (Exclusive0
// at its epoch: race_events.cpp, free_block_slowly); the block's histories
// go back with it, so the report used to have one side (use_after_free_racy).
//
// A fixed table direct-mapped by block start: memory stays constant, and a
// free costs a few stores (its site and its two innermost callers, not an
// interned stack: that took 86 instructions a free, +1.9% on task_graph).
// Only a report looks the table up and interns the stack. A free
// overwritten by a later one loses its side in a report, never the race.
#ifndef SNAG_ENGINES_RACE_RECENT_FREES_H
#define SNAG_ENGINES_RACE_RECENT_FREES_H

#include <stdint.h>

#include <atomic>

#include "core/platform.h"
#include "core/stack.h"
#include "engines/race/shadow.h"

namespace snag::race {

// 512 entries of 48 bytes: a program's last few hundred small frees. Only
// a race found before the freed memory is allocated again needs one.
constexpr uint32_t kRecentFreeBits = 9;
constexpr uint32_t kRecentFrees = 1u << kRecentFreeBits;

// Written by the freeing thread, read by a reporting one: `when` (slot and
// clock, plus one; 0 while the entry is being written) is cleared first and
// set last, and read before and after the rest, so a reader never takes one
// free's range with another's stack.
struct RecentFree {
  std::atomic<uint64_t> when;
  std::atomic<uint64_t> start;
  std::atomic<uint64_t> size;
  std::atomic<snag_site_t> site;
  std::atomic<snag_site_t> callers[2];  // innermost first; 0: none
};
extern RecentFree g_recent_frees[kRecentFrees];

// The free of [start, start + size) by thread `slot` at `clock`, called at
// `site` with the calling frames `shadow` holds. Inline: a free's few
// stores (task_graph frees a million blocks).
SNAG_ALWAYS_INLINE void remember_free(uintptr_t start, uintptr_t size, uint32_t slot, uint32_t clock,
                                      snag_site_t site, const ShadowStack &shadow) {
  RecentFree &e = g_recent_frees[((start >> 4) * 0x9e3779b97f4a7c15ull) >> (64 - kRecentFreeBits)];
  snag_site_t caller = 0, next = 0;  // none past the frames kept
  const uint32_t depth = shadow.depth;
  if (shadow.frames && depth - 1 < ShadowStack::kCapacity) {
    caller = shadow.frames[depth - 1].call_site;
    if (depth > 1) next = shadow.frames[depth - 2].call_site;
  }
  e.when.store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  e.start.store(start, std::memory_order_relaxed);
  e.size.store(size, std::memory_order_relaxed);
  e.site.store(site ? site : 1, std::memory_order_relaxed);
  e.callers[0].store(caller, std::memory_order_relaxed);
  e.callers[1].store(next, std::memory_order_relaxed);
  e.when.store((uint64_t(slot) << 32 | clock) + 1, std::memory_order_release);
}

// The free by (slot, clock) of a block holding `addr`, as the remembered
// write a report shows for the variable [base, base + size) (offset and
// size within it, the free's site and callers as its stack); false when
// the table no longer holds it.
bool recall_free(uintptr_t addr, uint32_t slot, uint32_t clock, uintptr_t base, uintptr_t size, History *out);

}  // namespace snag::race

#endif
