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

// Lazy threads (explore's lazy_threads option): an engine may defer the
// kernel thread of a new thread on a lent stack until it first runs it, so
// the thread never runs, and never parks, before its turn. pthread_create
// then returns the handle glibc will give the thread. g_defer_thread
// returns true to defer; the engine calls materialize_thread(child) before
// the thread's first turn.
extern bool (*g_defer_thread)(Tid child);
void materialize_thread(Tid child);
// Creates a deferred thread before a call that reads its descriptor.
void materialize_handle(pthread_t thread);
// Learns where glibc puts a thread's descriptor on a user stack, with one
// thread of its own, before the schedules fork; nothing is deferred without
// it.
void learn_deferred_handle_offset();
// A forked child of the program: the deferred threads were never created.
void drop_deferred_threads();
// Set by the engine: a deferred creation failed with `error` after
// pthread_create had returned 0 to the program. Does not return.
extern void (*g_deferred_creation_failed)(int error);

}  // namespace snag
