// An engine may lend stacks of its own to the threads a program creates
// with default attributes (explore's forked schedules: no mmap, mprotect and
// madvise per thread; engines/explore/thread_stacks.h). pthread_create asks
// the lender, and pthread_join gives the stack back.
#pragma once

#include <pthread.h>
#include <stddef.h>

#include "core/thread_state.h"

namespace snag {

struct ThreadStackLender {
  // A stack for new thread `child` (lowest address and size); false: glibc
  // allocates one as usual.
  bool (*lend)(Tid child, void **base, size_t *size);
  // `child` was joined, so it has left the kernel: its stack may be lent
  // again. (The stack of a thread that was never joined is never reused.)
  void (*give_back)(Tid child);
};

// Null unless an engine lends stacks.
extern const ThreadStackLender *g_thread_stack_lender;

// PROTOTYPE (branch explore-100b-lazy-proto, not for main): an engine may
// defer the kernel thread of a new thread with a lent stack until it first
// runs it. Returns true to defer; the engine then calls
// materialize_thread(child) before the thread's first turn.
extern bool (*g_defer_thread)(Tid child);
void materialize_thread(Tid child);
void materialize_handle(pthread_t thread);
// A forked child of the program: the deferred threads were never created.
void drop_deferred_threads();
// Set by the engine: a deferred creation failed (after pthread_create
// returned 0 to the program).
extern void (*g_deferred_creation_failed)();

}  // namespace snag
