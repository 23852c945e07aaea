// Calls that wait in the kernel (EventKind::kBlockingCall), modelled as
// waits of the controlled scheduler: the caller blocks in the model until a
// zero-timeout check says the call would not block, so the thread it waits
// for (a pipe's writer) runs meanwhile, and whether the wait is over is
// decided at the same scheduling points in every run of the schedule. Only
// when no thread can run does the scheduler wait in the kernel, for any of
// the blocked calls.
#pragma once

#include <poll.h>
#include <stdint.h>

#include "engines/explore/scheduler.h"

namespace snag::explore {

struct IoWait {
  const char *name = "?";  // the call, for reports
  pollfd *fds = nullptr;   // what ends the wait (not a child wait)
  uint32_t count = 0;
  bool on_descriptor = false;  // the call operates on fds[0].fd
  bool child = false;          // a wait for a child process: idtype, id, options
  int idtype = 0;
  int64_t id = 0;
  int options = 0;
};

// True when the call would not block now.
bool io_ready(const IoWait &w);

// Nothing can run but threads in `waiting` (their `wait_addr` is an IoWait):
// returns once one of them may be ready.
void wait_for_io(ControlledThread *const *waiting, int n);

}  // namespace snag::explore
