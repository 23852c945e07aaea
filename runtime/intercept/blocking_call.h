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

}  // namespace snag
