// The recorder of paper 003's Algorithm 1: for each 8-byte granule of
// memory, the last two accesses that came from different threads (site,
// thread, kind, stack). From it the remote predecessor of an access follows:
// the newest entry when another thread made it, else the older one.
//
// A direct-mapped table indexed by the granule address, mapped
// once (virtual memory only; pages are touched as addresses are), never
// allocating after start-up. A slot holding another granule is taken over:
// that granule's history is forgotten, and until a second thread touches it
// again its remote predecessor is *unknown* (checked as allowed, learned as
// nothing) rather than nil, so evictions never look like order violations.
//
// The access hook's fast path reads a slot without locking (is the newest
// entry this very thread at this very site? then nothing changes); every
// change happens with the slot's lock bit held.
#pragma once

#include <atomic>
#include <stddef.h>
#include <stdint.h>

#include "core/platform.h"
#include "core/stack.h"
#include "snag/abi.h"

namespace snag::guard {

// A remote predecessor that cannot be known (the slot's history was lost).
constexpr snag_site_t kUnknownSite = ~snag_site_t{0} - 15;

struct Accessor {
  snag_site_t site = 0;   // 0: none (nil); kUnknownSite: unknown
  uint32_t thread = 0;    // tid + 1; 0: none
  StackId stack = 0;
  bool write = false;
};

struct Slot {
  std::atomic<uint64_t> key;  // granule address, | 1 while locked; 0: never used
  // [0] the newest access, [1] the newest one by a thread other than [0]'s.
  snag_site_t site[2];
  uint32_t thread[2];
  StackId stack[2];
  uint8_t write[2];
  uint8_t evicted;  // history lost to another granule; no second thread since
};

constexpr int kRecorderLog2Slots = SNAG_GUARD_SLOTS_LOG2;  // 4M slots, 48 bytes each (virtual)

extern Slot *g_slots;

// What a lean guard build's inlined check reads (include/snag/abi.h fixes
// the layout; compiler/plugin's emitGuardFastPath computes slot_of() and
// unchanged() from it): the table, its index mask (0 while guard is not
// running: one empty slot that never matches, so every access calls its
// hook), and the calling thread's id + 1 (0 until its first slow path).
extern "C" Slot *__snag_guard_slots;
extern "C" uint64_t __snag_guard_mask;
extern "C" __thread uint32_t __snag_guard_tid;
static_assert(sizeof(Slot) == SNAG_GUARD_SLOT_SIZE && offsetof(Slot, site) == SNAG_GUARD_SLOT_SITE_OFFSET &&
                  offsetof(Slot, thread) == SNAG_GUARD_SLOT_THREAD_OFFSET,
              "the plugin's inlined guard check reads the layout of include/snag/abi.h");

void recorder_init();

// The slot key of the granule holding `addr`: its address plus 8, so that
// it is never 0 (an unused slot) and its low bit is free for the lock.
SNAG_ALWAYS_INLINE uintptr_t granule_of(uintptr_t addr) { return (addr & ~uintptr_t{7}) + 8; }

// Neighbouring granules get neighbouring slots (a loop over an array walks
// the table in order instead of missing the cache at every access); the
// bits above each 32 MiB window are added in so that the heap, globals and
// stacks do not all land on the same slots.
SNAG_ALWAYS_INLINE Slot &slot_of(uintptr_t granule) {
  uint64_t index = (granule >> 3) + (granule >> (3 + kRecorderLog2Slots)) * SNAG_GUARD_WINDOW_HASH;
  return g_slots[index & ((uint64_t{1} << kRecorderLog2Slots) - 1)];
}

// True when the newest access to `granule` was this thread at this site:
// then the access changes nothing and its check was already made.
SNAG_ALWAYS_INLINE bool unchanged(const Slot &s, uintptr_t granule, uint32_t thread,
                                  snag_site_t site) {
  return s.key.load(std::memory_order_relaxed) == granule &&
         __atomic_load_n(&s.thread[0], __ATOMIC_RELAXED) == thread &&
         __atomic_load_n(&s.site[0], __ATOMIC_RELAXED) == site;
}

// Locks the slot for `granule`, taking it over (forgetting another
// granule's history) if needed.
Slot &lock_slot(uintptr_t granule);
void unlock_slot(Slot &s, uintptr_t granule);

// With the slot locked: the remote predecessor of an access by `thread`
// (site 0 = nil) and, when the access's own thread made the entry right
// before it, that local predecessor.
Accessor remote_predecessor(const Slot &s, uint32_t thread);
Accessor local_predecessor(const Slot &s, uint32_t thread);
// With the slot locked: records the access (Algorithm 1's UpdateRecorder).
void record_access(Slot &s, const Accessor &access);

}  // namespace snag::guard
