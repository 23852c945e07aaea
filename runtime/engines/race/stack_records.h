// How deep the threads on each reused thread stack went, so that a new
// thread makes fresh only the part of its stack an earlier thread used.
//
// A new thread may run on a stack an ended thread used (glibc keeps the
// stacks of joined and ended detached threads and hands them out again):
// the old thread's state words, histories and synchronization variables on
// it must go, or its accesses would look like races with the new thread's.
// Clearing the whole stack at every start (an 8 MiB range: a mincore over
// its 2,048 shadow pages and two walks of their headers) was 35% of
// short_threads' CPU time; a thread uses a few pages of it. So each stack
// glibc allocates has a record of the lowest stack pointer any thread on it
// had while the race engine ran (RaceEngine::thread_data notes it on every
// entry): every state word, history and variable that thread's accesses
// made on its own stack lies above that, since the engine runs below the
// frames it records accesses of; another thread's access of a variable on
// this stack comes after the variable's frame was live and the owner
// entered the engine from it (to initialize it, or to hand its address over
// through a creation, lock or atomic). The next thread on that stack clears
// from just below that point to the top. A stack the records do not know
// (its first thread, a stack the program gives, one whose record was
// replaced or forgotten) is cleared whole.
//
// A record is forgotten when the program maps or unmaps memory over it
// (mmap and munmap are seen: kMemoryFresh) and when another stack is
// claimed over part of it (glibc unmapped the old one); heap blocks placed
// there after glibc unmapped a stack leave no state once freed. Memory the
// runtime does not see mapped (a library dlopen maps there after the stack
// was unmapped, then dlclose unmaps, then glibc maps a stack of the same
// address and size there) could keep words below the recorded point: not
// handled.
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/platform.h"

namespace snag::race {

// The record word of a thread whose stack has no record (its own copy is
// 0, so that it is never lowered).
extern std::atomic<uintptr_t> g_untracked_stack_low;

// What a new thread on the glibc stack [base, base + size), now at stack
// pointer `sp`, must clear: from `dirty_from` to the top. `low` is the word
// it lowers from then on (its stack's record, or g_untracked_stack_low when
// the table had no room).
struct StackClaim {
  uintptr_t dirty_from;
  std::atomic<uintptr_t> *low;
};
StackClaim claim_stack(uintptr_t base, uintptr_t size, uintptr_t sp);

// Forgets the records of stacks overlapping [begin, end): memory mapped or
// unmapped there, or a stack the records do not describe.
void forget_stack_records(uintptr_t begin, uintptr_t end);

// The calling thread's stack pointer.
SNAG_ALWAYS_INLINE uintptr_t current_stack_pointer() {
#if defined(__x86_64__)
  uintptr_t sp;
  asm volatile("mov %%rsp, %0" : "=r"(sp));
  return sp;
#else
  return reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
#endif
}

// Lowers `seen` (the thread's own copy, on a line it writes anyway) and its
// stack's record `low` to the calling thread's stack pointer: a load and a
// compare on every entry into the engine, a store only when the thread went
// deeper than before. The record is not read there: records of threads
// alive at once share cache lines.
SNAG_ALWAYS_INLINE void note_stack_depth(uintptr_t &seen, std::atomic<uintptr_t> *low) {
  const uintptr_t sp = current_stack_pointer();
  if (SNAG_UNLIKELY(sp < seen)) {
    seen = sp;
    low->store(sp, std::memory_order_relaxed);
  }
}

// Forgets every record (unit tests).
void reset_stack_records();

}  // namespace snag::race
