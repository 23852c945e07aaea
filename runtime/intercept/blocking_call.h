// Announcing a call that may block in the kernel (EventKind::kBlockingCall)
// before it is made: under the controlled scheduler the calling thread would
// otherwise keep the baton while it waits for another thread (a pipe's
// writer) that can never run. The scheduler instead blocks it in its model
// until the call would not block, and lets the others run meanwhile.
#pragma once

#include <poll.h>
#include <stdint.h>

namespace snag {

// `fds` says what ends the wait; `timeout_ms` < 0 means none. `on_descriptor`:
// the call operates on fds[0].fd, so an O_NONBLOCK descriptor never waits.
// Returns true when the scheduler decided that the wait timed out: the
// caller then makes the call with a zero timeout.
bool announce_blocking_call(const char *name, pollfd *fds, uint32_t count, int64_t timeout_ms,
                            bool on_descriptor);

// The same for a wait for child processes (waitpid, wait4, waitid): the
// call's idtype, id and options.
bool announce_child_wait(const char *name, int idtype, int64_t id, int options);

// Calls with a non-blocking form (flock with LOCK_NB, sigtimedwait with a
// zero timeout, ...) are made that way under the scheduler, so the result
// is decided at the same point of every run of a schedule:
//
//   for (uint32_t attempt = 0;; ++attempt) {
//     RetryStep step = before_attempt("flock", &key, attempt, false);
//     if (step != RetryStep::kTry) return <the blocking call, or a time-out>;
//     <the non-blocking call>; if it did not fail for want of waiting, return it
//   }
//
// After a failed attempt the caller waits in the scheduler's model until
// another thread calls wake_attempts(key) before doing what may let it
// through (unlocking, sending a signal). kBlock: make the blocking call
// itself (not under the scheduler, or no other thread can run: what it
// waits for comes from outside). kTimedOut: a timed call's time ran out.
enum class RetryStep { kTry, kBlock, kTimedOut };
RetryStep before_attempt(const char *name, const void *key, uint32_t attempt, bool timed);
void wake_attempts(const void *key);

// True when the leading engine keeps blocked calls in its model (explore
// and replay): stdio then refills its buffers one announced wait at a time.
bool blocking_calls_modelled();

}  // namespace snag
