// fork and exit. After fork only the forking thread lives in the child: the
// allocator's lock is taken around the fork, and every other runtime lock
// another thread held at the fork is free in the child (core/spinlock.h).
// exit records the status for the exit event, which the runtime's atexit
// handler sends after the program's own handlers and static destructors have
// run. _exit skips those handlers, so it finishes the runtime itself.
#include <stdlib.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/spinlock.h"
#include "core/thread_stack_lender.h"
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(pid_t, fork, ())
SNAG_REAL(void, exit, (int))
SNAG_REAL(void, _exit, (int))
SNAG_REAL(void, __assert_fail, (const char *, const char *, unsigned, const char *))

SNAG_INTERCEPTOR pid_t fork() {
  ThreadState *t = observing_thread();
  if (t) {
    emit(t, make_event(EventKind::kForkBefore));
    // Held across the fork so the child's allocator is not caught mid-refill.
    internal_alloc_lock_for_fork();
  }
  pid_t pid = real_fork()();
  if (pid == 0) fork_generation_advance();
  if (!t) return pid;
  internal_alloc_unlock_after_fork();
  if (pid == 0) {
    threads_after_fork_child();
    drop_deferred_threads();
  }
  Event e = make_event(pid == 0 ? EventKind::kForkChild : EventKind::kForkParent);
  e.value = static_cast<uint64_t>(pid < 0 ? 0 : pid);
  emit(t, e);
  return pid;
}

SNAG_INTERCEPTOR void exit(int status) noexcept {
  if (ThreadState *t = observing_thread()) {
    Event e = make_event(EventKind::kExitCall);
    e.value = static_cast<uint64_t>(static_cast<unsigned>(status));
    emit(t, e);
  }
  note_exit_status(status);
  real_exit()(status);
  __builtin_unreachable();
}

SNAG_INTERCEPTOR void _exit(int status) noexcept {
  if (g_started) {
    int override_status = finish_process(status);
    if (override_status != 0) status = override_status;
  }
  real__exit()(status);
  __builtin_unreachable();
}

// assert() failures: the engine learns the assertion and its place before
// glibc prints the message and aborts.
SNAG_INTERCEPTOR void __assert_fail(const char *assertion, const char *file, unsigned line,
                                  const char *function) noexcept {
  if (ThreadState *t = observing_thread()) {
    Event e = make_event(EventKind::kAssertFailure);
    e.addr = reinterpret_cast<uintptr_t>(assertion);
    e.addr2 = reinterpret_cast<uintptr_t>(file);
    e.value = line;
    emit(t, e);
  }
  real___assert_fail()(assertion, file, line, function);
  __builtin_unreachable();
}
