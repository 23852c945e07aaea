// What the tsv engine remembers per object, built so that the common call —
// at a site no near miss ever involved — writes nothing shared:
//
//   - the latest read and the latest write of each thread on the object
//     (site, time, epoch), for near misses; a thread rewrites a record at
//     most once per clock tick (a few milliseconds), so a thread calling in
//     a loop leaves the entry's cache lines shared;
//   - the calls in progress at dangerous sites (TSVD's traps, delayed or
//     not), registered under the entry's lock; every call checks one shared
//     counter and looks at them only when it is not zero, so a conflicting
//     call walks into a trap and is caught red-handed.
//
// Objects live in a fixed, direct-mapped table keyed by address. Two
// objects that map to one entry share it only while no call is registered
// on it: the older one's history is dropped, which costs a near miss at
// worst, never a false report. History records are written without a lock;
// a torn record can at worst make a pair dangerous that is not, costing a
// delay, never a report.
#pragma once

#include <stdint.h>

#include "core/stack.h"
#include "core/thread_state.h"

namespace snag::tsv {

// One call as the engine sees it when it starts.
struct Call {
  snag_site_t site = 0;      // the user's call (0: unknown)
  uint32_t flags = 0;        // ApiCallFlags (core/api_calls.h)
  uintptr_t description = 0; // LibcCall* or annotated name, per flags
  snag_site_t inner_site = 0; // annotated calls: the annotation, in the annotated function
  Tid thread = kNoThread;
  bool concurrent = false;   // made in a concurrent phase (more than one thread active)
  uint32_t epoch = 0;        // thread creations and joins before it (see ordered_by_threads)
  bool write() const;
};

// The other side of a conflict, copied while its thread was still inside
// its call (so its stack is the stack at the moment of the conflict).
struct Conflict {
  Call other;
  bool other_delayed = false;  // caught during a delay snag injected
  StackTrace other_stack;
};

constexpr int kLatestCallSlots = 8;
// Near misses carry a thread's id and a call's epoch in this many low bits.
constexpr uint32_t kNearMissThreadBits = 20;
constexpr uint32_t kNearMissEpochBits = 14;
constexpr int kMaxActiveCalls = 6;
constexpr int kMaxConflicts = 2;

// What starting a call found on its object.
struct CallStart {
  int slot = -1;  // the call's registration (-1: not registered)
  int conflict_count = 0;
  Conflict conflicts[kMaxConflicts];
  // Latest calls by other threads that nearly conflicted.
  struct NearMiss {
    snag_site_t site;
    Tid thread;      // modulo 2^kNearMissThreadBits
    uint32_t epoch;  // modulo 2^kNearMissEpochBits
  };
  int near_miss_count = 0;
  NearMiss near_misses[2 * kLatestCallSlots];
};

// Starts `call` on `object` at `now_ms`: catches conflicting calls
// registered by other threads; with `look_for_near_misses`, finds near
// misses (conflicting latest calls of other threads within `window_ms`, one
// of the two made in a concurrent phase) and records the call as its
// thread's latest; with `register_call`, registers it, made by thread `t`
// whose shadow stack below `shadow_depth` is its calling context, until
// end_call. (The caller skips the near misses of a call it made already in
// this clock tick: it would find the same ones.)
void start_call(uintptr_t object, const Call &call, ThreadState &t, uint32_t shadow_depth,
                uint32_t now_ms, uint32_t window_ms, bool register_call, bool look_for_near_misses,
                CallStart *out);

// Whether some call is registered on `object` (one load, usually from a
// shared cache line).
bool has_registered_calls(uintptr_t object);

// Marks the registered call at `slot` as held in a delay (or no longer).
void set_delayed(uintptr_t object, int slot, bool delayed);

// Whether another thread's call conflicted with the registered call at
// `slot` since it started.
bool was_caught(uintptr_t object, int slot);

// Removes the registered call at `slot` of `object`.
void end_call(uintptr_t object, int slot);

}  // namespace snag::tsv
