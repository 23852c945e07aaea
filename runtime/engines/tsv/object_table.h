// What the tsv engine remembers per object: the calls in progress on it
// (who is inside which member right now — the "traps" of TSVD, which catch a
// conflicting call red-handed) and its few most recent calls (for near
// misses). Objects are kept in a fixed, direct-mapped table keyed by
// address; each entry has its own small lock, held for a few dozen
// instructions. Two objects that map to the same entry share it only while
// neither has a call in progress: the older one's history is dropped, which
// costs a near miss at worst, never a false report.
#pragma once

#include <stdint.h>

#include "core/spinlock.h"
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
  bool write() const;
};

// The other side of a conflict, copied while its thread was still inside
// its call (so its stack is the stack at the moment of the conflict).
struct Conflict {
  Call other;
  bool other_delayed = false;  // caught during a delay snag injected
  StackTrace other_stack;
};

constexpr int kMaxRecentCalls = 8;
constexpr int kMaxActiveCalls = 6;
constexpr int kMaxConflicts = 2;

// What starting a call found on its object.
struct CallStart {
  int slot = -1;  // this call's place among the object's calls in progress (-1: untracked)
  int conflict_count = 0;
  Conflict conflicts[kMaxConflicts];
  // Recent calls by other threads that nearly conflicted.
  struct NearMiss {
    snag_site_t site;
    Tid thread;
    uint64_t time;  // now_ns() when it started
  };
  int near_miss_count = 0;
  NearMiss near_misses[kMaxRecentCalls];
};

// Registers `call` on `object` (made by thread `t`, whose shadow stack below
// `shadow_depth` is the call's calling context), looks for calls in
// progress by other threads that conflict with it and for recent calls that
// nearly did: within `window_ns` of `now` (now_ns()), among the last
// `window_calls` calls, with one of the two made in a concurrent phase.
void start_call(uintptr_t object, const Call &call, ThreadState &t, uint32_t shadow_depth,
                uint64_t now, uint64_t window_ns, uint32_t window_calls, CallStart *out);

// Marks the call at `slot` as held in a delay (or no longer).
void set_delayed(uintptr_t object, int slot, bool delayed);

// Whether another thread's call conflicted with the call at `slot` since it
// started.
bool was_caught(uintptr_t object, int slot);

// Removes the call at `slot` of `object`.
void end_call(uintptr_t object, int slot);

}  // namespace snag::tsv
