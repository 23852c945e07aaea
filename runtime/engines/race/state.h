// RaceTrack's per-variable state (paper section 2.4, figure 4), packed into
// one 64-bit word so that it can be replaced with one compare-and-swap.
//
//   bits 0-2   kind
//   Exclusive0/1/2: bit 3 set when the owner wrote in this clock epoch,
//                   bits 4-11 the bytes of the granule the owner touched in
//                   this epoch (all set for blocks and single bytes),
//                   bits 12-31 thread id, bits 32-63 that thread's clock
//   SharedRead, SharedModify1: bits 32-63 lockset id (C_x)
//   SharedModify2 and Indirect: a pointer (8-byte aligned) in bits 3-47;
//                   SharedModify2 keeps a version in bits 48-63
//
// Departure from the paper: Exclusive0 also keeps the clock of the access, so
// the first transfer of a variable to another thread can be checked against
// happens-before instead of being assumed ordered (the paper's Exclusive0
// keeps only the thread, which misses races that happen exactly once).
#pragma once

#include <stdint.h>

#include "engines/race/lockset.h"
#include "engines/race/vector_clock.h"
#include "snag/race_fast_path.h"  // the layout's numbers, shared with the compiler pass

namespace snag::race {

enum class Kind : uint64_t {
  kVirgin = 0,
  kExclusive0 = SNAG_RACE_KIND_EXCLUSIVE0,
  kExclusive1 = SNAG_RACE_KIND_EXCLUSIVE1,
  kSharedRead = SNAG_RACE_KIND_SHARED_READ,
  kSharedModify1 = 4,
  kExclusive2 = SNAG_RACE_KIND_EXCLUSIVE2,
  kSharedModify2 = 6,
  kIndirect = 7,  // the state lives elsewhere: a heap block (coarse) or a split granule
};

constexpr uint64_t kKindMask = SNAG_RACE_KIND_MASK;
// A variable whose race was reported: no further tracking.
constexpr uint64_t kReportedWord = (uint64_t(0xffffffff) << 32) | uint64_t(Kind::kSharedRead);
// A variable whose history is being rewritten by one thread: others wait for
// the state word that follows (a few stores later). Looks like a Shared-Read
// word with a lockset no thread holds, so the fast path never accepts it.
constexpr uint64_t kBusyWord = (uint64_t(0xfffffffe) << 32) | uint64_t(Kind::kSharedRead);

SNAG_ALWAYS_INLINE Kind kind_of(uint64_t w) { return static_cast<Kind>(w & kKindMask); }
constexpr uint64_t kWroteBit = SNAG_RACE_WROTE_BIT;
constexpr uint64_t kBytesShift = SNAG_RACE_BYTES_SHIFT;
constexpr uint64_t kBytesMask = SNAG_RACE_BYTES_MASK;
constexpr uint32_t kTidBits = 20;  // thread ids wrap after a million threads
SNAG_ALWAYS_INLINE Tid tid_of(uint64_t w) { return static_cast<Tid>((w >> 12) & ((1u << kTidBits) - 1)); }
SNAG_ALWAYS_INLINE bool wrote(uint64_t w) { return (w & kWroteBit) != 0; }
SNAG_ALWAYS_INLINE uint32_t bytes_of(uint64_t w) { return static_cast<uint32_t>((w & kBytesMask) >> kBytesShift); }
SNAG_ALWAYS_INLINE Tid wrap_tid(Tid t) { return t & ((1u << kTidBits) - 1); }
SNAG_ALWAYS_INLINE Clock clock_of(uint64_t w) { return static_cast<Clock>(w >> 32); }
SNAG_ALWAYS_INLINE LocksetId lockset_of(uint64_t w) { return static_cast<LocksetId>(w >> SNAG_RACE_LOCKSET_SHIFT); }
// User-space addresses fit in 47 bits (the kernel hands out no higher ones
// unless asked for them), so the top 16 bits are free for a version.
constexpr unsigned kVersionShift = 48;
constexpr uint64_t kPointerMask = ((uint64_t(1) << kVersionShift) - 1) & ~kKindMask;
SNAG_ALWAYS_INLINE void *pointer_of(uint64_t w) { return reinterpret_cast<void *>(w & kPointerMask); }

SNAG_ALWAYS_INLINE uint64_t exclusive_word(Kind k, Tid t, Clock c, bool wrote = false,
                                           uint32_t bytes = 0xff) {
  return uint64_t(k) | (wrote ? kWroteBit : 0) | (uint64_t(bytes & 0xff) << kBytesShift) |
         (uint64_t(wrap_tid(t)) << 12) | (uint64_t(c) << 32);
}
SNAG_ALWAYS_INLINE uint64_t shared_word(Kind k, LocksetId l) {
  return uint64_t(k) | (uint64_t(l) << SNAG_RACE_LOCKSET_SHIFT);
}
SNAG_ALWAYS_INLINE uint64_t pointer_word(Kind k, const void *p) {
  return uint64_t(k) | reinterpret_cast<uint64_t>(p);
}

// Shared-Modify2 tracks a threadset as well as a lockset. A change of the
// set or the lockset makes a new record (a reader never sees one
// half-made); the commonest change, a thread of the set accessing again at
// a later clock of its own, rewrites that thread's entry in place instead
// (one 8-byte store, under the state's claim) and bumps the word's version.
// Two threads reading one variable between releases of their own (a
// vector's data pointer read for every ++ of an atomic element) made a new
// record per access before, through the record allocator's and the
// quarantine's locks, which the two threads bounced between them. The
// version makes a thread that read the record before the rewrite fail its
// compare-and-swap, as a new record would (unless it stalled there through
// 65,536 rewrites: as with the quarantine's 4,096 records, a stall that
// long is taken not to happen).
struct ThreadsetEntry {
  Tid thread;
  Clock clock;
};
static_assert(sizeof(ThreadsetEntry) == sizeof(uint64_t), "an entry is rewritten with one store");

SNAG_ALWAYS_INLINE ThreadsetEntry load_entry(const ThreadsetEntry &e) {
  const uint64_t bits = __atomic_load_n(reinterpret_cast<const uint64_t *>(&e), __ATOMIC_RELAXED);
  ThreadsetEntry copy;
  __builtin_memcpy(&copy, &bits, sizeof copy);
  return copy;
}
SNAG_ALWAYS_INLINE void store_entry(ThreadsetEntry &e, ThreadsetEntry value) {
  uint64_t bits;
  __builtin_memcpy(&bits, &value, sizeof bits);
  __atomic_store_n(reinterpret_cast<uint64_t *>(&e), bits, __ATOMIC_RELAXED);
}
// The same record, one version on (wrapping after 65,536 rewrites).
SNAG_ALWAYS_INLINE uint64_t next_version(uint64_t w) { return w + (uint64_t(1) << kVersionShift); }

struct SharedModify2Record {
  LocksetId lockset;
  uint32_t count;
  ThreadsetEntry entries[1];  // `count` entries
};

// What an Indirect word points to. Both records start with their type (one
// byte: a heap block's record keeps its history form beside it).
enum class IndirectType : uint8_t { kBlock = 0x62, kSplit = 0x73 };

}  // namespace snag::race
