#include "engines/explore/io_waits.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "core/platform.h"

namespace snag::explore {

namespace {

constexpr int kMaxPolled = 1024;
// Only the baton holder waits, so one buffer serves all.
pollfd g_polled[kMaxPolled];

bool child_ready(const IoWait &w) {
  siginfo_t info;
  info.si_pid = 0;
  // WNOWAIT: look without reaping; the call itself reaps.
  long rc = raw_syscall(SYS_waitid, w.idtype, long(w.id), reinterpret_cast<long>(&info),
                        w.options | WNOHANG | WNOWAIT, 0);
  return rc < 0 || info.si_pid != 0;  // an error (no such child) does not wait either
}

bool nonblocking(int fd) {
  long flags = raw_syscall(SYS_fcntl, fd, F_GETFL);
  return flags < 0 || (flags & O_NONBLOCK);
}

}  // namespace

bool io_ready(const IoWait &w) {
  if (w.child) return child_ready(w);
  timespec zero = {0, 0};
  // ppoll writes only the revents fields, which the call sets again anyway.
  long rc = raw_syscall(SYS_ppoll, reinterpret_cast<long>(w.fds), long(w.count),
                        reinterpret_cast<long>(&zero), 0, 8);
  if (rc != 0) return true;  // ready, or an error the call will report at once
  return w.on_descriptor && nonblocking(w.fds[0].fd);
}

void wait_for_io(ControlledThread *const *waiting, int n) {
  int polled = 0;
  int pidfds = 0;  // the first ones in g_polled, closed afterwards
  bool children = false;
  for (int i = 0; i < n; ++i) {
    const IoWait &w = *reinterpret_cast<const IoWait *>(waiting[i]->wait_addr);
    if (w.child) {
      // One child's end can be polled through a pidfd (readable once it exited).
      int pidfd = w.idtype == P_PID && !(w.options & (WSTOPPED | WCONTINUED)) && polled < kMaxPolled
                      ? static_cast<int>(raw_syscall(SYS_pidfd_open, long(w.id), 0))
                      : -1;
      if (pidfd >= 0 && polled == pidfds) {
        g_polled[polled++] = {pidfd, POLLIN, 0};
        ++pidfds;
      } else {
        if (pidfd >= 0) raw_syscall(SYS_close, pidfd);
        children = true;
      }
      continue;
    }
    for (uint32_t k = 0; k < w.count && polled < kMaxPolled; ++k) g_polled[polled++] = w.fds[k];
  }
  // Any other child wait cannot be polled: look again every 10 ms then. This only
  // paces the wait; whether a call is ready is decided by io_ready.
  timespec step = {0, 10 * 1000 * 1000};
  raw_syscall(SYS_ppoll, reinterpret_cast<long>(g_polled), polled,
              children ? reinterpret_cast<long>(&step) : 0, 0, 8);
  for (int i = 0; i < pidfds; ++i) raw_syscall(SYS_close, g_polled[i].fd);
}

}  // namespace snag::explore
