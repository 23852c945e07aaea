// Call stacks. Each thread keeps a shadow stack of the call sites that led to
// the current function (pushed by __snag_func_entry); a StackTrace is a copy
// of it with the current site on top, innermost frame first. The stack depot
// interns traces so engines can keep one 32-bit id per remembered stack.
#pragma once

#include <stdint.h>

#include "snag/abi.h"

namespace snag {

constexpr uint32_t kMaxStackFrames = 64;

struct StackTrace {
  uint32_t depth = 0;
  snag_site_t frames[kMaxStackFrames];  // frames[0] is the innermost
};

struct ShadowFrame {
  snag_site_t call_site;  // the caller's call instruction
  uintptr_t frame;        // the callee's frame address (see __snag_func_entry)
};

struct ShadowStack {
  static constexpr uint32_t kCapacity = 256;
  static constexpr uint32_t kRetired = 1u << 30;  // the thread has ended
  uint32_t depth = 0;  // may exceed kCapacity; frames beyond it are not kept
  // The lowest depth since an engine last set it: frames below it have not
  // changed since then (the race engine's cached calling context, which a
  // return below its top frame's caller can make stale).
  uint32_t lowest_since_mark = 0;
  ShadowFrame *frames = nullptr;

  void push(snag_site_t call_site, uintptr_t frame_address) {
    // Frames at or below the new frame's address have returned without
    // __snag_func_exit (exception, longjmp): drop them.
    while (depth > 0 && depth <= kCapacity && frames[depth - 1].frame <= frame_address) {
      if (--depth < lowest_since_mark) lowest_since_mark = depth;
    }
    if (depth < kCapacity) frames[depth] = {call_site, frame_address};
    ++depth;
  }
  void pop() {
    if (depth > 0 && --depth < lowest_since_mark) lowest_since_mark = depth;
  }
};

// Copies `shadow` below `top` (0 to leave the top out) into `out`.
void capture_stack(const ShadowStack &shadow, snag_site_t top, StackTrace *out);

// Interned stacks. Id 0 is the empty stack. Insertion is lock-free; ids stay
// valid for the life of the process.
using StackId = uint32_t;
StackId depot_put(const StackTrace &trace);
void depot_get(StackId id, StackTrace *out);
// Whether `id` is the stack capture_stack(shadow, top) would give, without
// copying or hashing it.
bool depot_holds(StackId id, const ShadowStack &shadow, snag_site_t top);
// Tells `observer` (nullptr: nobody) of each trace the depot had to add.
void depot_observe_additions(void (*observer)(const StackTrace &));

}  // namespace snag
