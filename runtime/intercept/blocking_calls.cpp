// Calls that wait in the kernel for input, a connection, readiness or a
// child process. Each announces itself first (blocking_call.h); a timeout
// the scheduler chose becomes a call without waiting. read, write, recv and
// send announce themselves in fd_io.cpp; accept, accept4, epoll_wait and
// epoll_pwait in fd_lifetime.cpp, beside what they mean for the race engine
// (each symbol has one interceptor: of two weak definitions the linker
// silently keeps one).
#include <errno.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "intercept/blocking_call.h"
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(ssize_t, readv, (int, const struct iovec *, int))
SNAG_REAL(ssize_t, recvfrom, (int, void *, size_t, int, struct sockaddr *, socklen_t *))
SNAG_REAL(ssize_t, recvmsg, (int, struct msghdr *, int))
SNAG_REAL(int, poll, (struct pollfd *, nfds_t, int))
SNAG_REAL(int, ppoll, (struct pollfd *, nfds_t, const struct timespec *, const sigset_t *))
SNAG_REAL(int, select, (int, fd_set *, fd_set *, fd_set *, struct timeval *))
SNAG_REAL(int, pselect, (int, fd_set *, fd_set *, fd_set *, const struct timespec *,
                         const sigset_t *))
SNAG_REAL(pid_t, waitpid, (pid_t, int *, int))
SNAG_REAL(pid_t, wait, (int *))
SNAG_REAL(pid_t, wait4, (pid_t, int *, int, struct rusage *))
SNAG_REAL(int, waitid, (idtype_t, id_t, siginfo_t *, int))

namespace {

bool input_wait(const char *name, int fd, bool on_descriptor) {
  pollfd p = {fd, POLLIN, 0};
  return announce_blocking_call(name, &p, 1, -1, on_descriptor);
}

int64_t timespec_ms(const struct timespec *ts) {
  if (!ts) return -1;
  return int64_t(ts->tv_sec) * 1000 + (ts->tv_nsec + 999999) / 1000000;
}

constexpr struct timespec kZero = {0, 0};

// select's sets as pollfds; false when there are none to wait for.
uint32_t sets_to_pollfds(int n, fd_set *r, fd_set *w, fd_set *x, pollfd *out) {
  uint32_t count = 0;
  for (int fd = 0; fd < n && fd < FD_SETSIZE; ++fd) {
    short events = 0;
    if (r && FD_ISSET(fd, r)) events |= POLLIN;
    if (w && FD_ISSET(fd, w)) events |= POLLOUT;
    if (x && FD_ISSET(fd, x)) events |= POLLPRI;
    if (events) out[count++] = {fd, events, 0};
  }
  return count;
}

bool select_wait(const char *name, int n, fd_set *r, fd_set *w, fd_set *x, int64_t timeout_ms) {
  if (timeout_ms == 0) return false;
  pollfd fds[FD_SETSIZE];
  uint32_t count = sets_to_pollfds(n, r, w, x, fds);
  return announce_blocking_call(name, fds, count, timeout_ms, false);
}

// waitpid's pid argument as waitid's idtype and id.
void pid_to_id(pid_t pid, int *idtype, int64_t *id) {
  if (pid < -1) *idtype = P_PGID, *id = -pid;
  else if (pid == -1) *idtype = P_ALL, *id = 0;
  else if (pid == 0) *idtype = P_PGID, *id = getpgrp();
  else *idtype = P_PID, *id = pid;
}

bool child_wait(const char *name, pid_t pid, int options) {
  if (options & WNOHANG) return false;
  int idtype;
  int64_t id;
  pid_to_id(pid, &idtype, &id);
  // waitpid's options are waitid's with WEXITED implied.
  return announce_child_wait(name, idtype, id, WEXITED | (options & (WUNTRACED | WCONTINUED)));
}

}  // namespace

SNAG_INTERCEPTOR ssize_t readv(int fd, const struct iovec *iov, int count) {
  input_wait("readv", fd, true);
  return real_readv()(fd, iov, count);
}

SNAG_INTERCEPTOR ssize_t recvfrom(int fd, void *data, size_t size, int flags, struct sockaddr *from,
                                  socklen_t *from_size) {
  if (!(flags & MSG_DONTWAIT)) input_wait("recvfrom", fd, true);
  return real_recvfrom()(fd, data, size, flags, from, from_size);
}

SNAG_INTERCEPTOR ssize_t recvmsg(int fd, struct msghdr *message, int flags) {
  if (!(flags & MSG_DONTWAIT)) input_wait("recvmsg", fd, true);
  return real_recvmsg()(fd, message, flags);
}

SNAG_INTERCEPTOR int poll(struct pollfd *fds, nfds_t count, int timeout) {
  if (timeout != 0 && announce_blocking_call("poll", fds, uint32_t(count), timeout, false))
    timeout = 0;
  return real_poll()(fds, count, timeout);
}

SNAG_INTERCEPTOR int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout,
                           const sigset_t *mask) {
  int64_t ms = timespec_ms(timeout);
  if (ms != 0 && announce_blocking_call("ppoll", fds, uint32_t(count), ms, false)) timeout = &kZero;
  return real_ppoll()(fds, count, timeout, mask);
}

SNAG_INTERCEPTOR int select(int n, fd_set *r, fd_set *w, fd_set *x, struct timeval *timeout) {
  int64_t ms = timeout ? int64_t(timeout->tv_sec) * 1000 + (timeout->tv_usec + 999) / 1000 : -1;
  if (select_wait("select", n, r, w, x, ms)) timeout->tv_sec = timeout->tv_usec = 0;
  return real_select()(n, r, w, x, timeout);
}

SNAG_INTERCEPTOR int pselect(int n, fd_set *r, fd_set *w, fd_set *x,
                             const struct timespec *timeout, const sigset_t *mask) {
  if (select_wait("pselect", n, r, w, x, timespec_ms(timeout))) timeout = &kZero;
  return real_pselect()(n, r, w, x, timeout, mask);
}

SNAG_INTERCEPTOR pid_t waitpid(pid_t pid, int *status, int options) {
  child_wait("waitpid", pid, options);
  return real_waitpid()(pid, status, options);
}

SNAG_INTERCEPTOR pid_t wait(int *status) {
  child_wait("wait", -1, 0);
  return real_wait()(status);
}

SNAG_INTERCEPTOR pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage) {
  child_wait("wait4", pid, options);
  return real_wait4()(pid, status, options, usage);
}

SNAG_INTERCEPTOR int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
  if (!(options & WNOHANG)) announce_child_wait("waitid", idtype, id, options);
  return real_waitid()(idtype, id, info, options);
}

namespace snag {

bool announce_blocking_call(const char *name, pollfd *fds, uint32_t count, int64_t timeout_ms,
                            bool on_descriptor) {
  ThreadState *t = observing_thread();
  if (!t || count == 0) return false;
  Event e = make_event(EventKind::kBlockingCall);
  e.addr = reinterpret_cast<uintptr_t>(fds);
  e.size = count;
  e.value = static_cast<uint64_t>(timeout_ms < 0 ? -1 : timeout_ms);
  e.addr2 = reinterpret_cast<uintptr_t>(name);
  if (on_descriptor) e.flags |= kBlockingOnDescriptor;
  return emit(t, e).skip_real;
}

bool announce_child_wait(const char *name, int idtype, int64_t id, int options) {
  ThreadState *t = observing_thread();
  if (!t) return false;
  Event e = make_event(EventKind::kBlockingCall);
  e.flags = kBlockingChildWait;
  e.addr = static_cast<uintptr_t>(id);
  e.order = static_cast<uint32_t>(idtype);
  e.size = static_cast<uint32_t>(options);
  e.value = static_cast<uint64_t>(int64_t(-1));
  e.addr2 = reinterpret_cast<uintptr_t>(name);
  return emit(t, e).skip_real;
}

RetryStep before_attempt(const char *name, const void *key, uint32_t attempt, bool timed) {
  ThreadState *t = observing_thread();
  if (!t) return attempt == 0 ? RetryStep::kTry : RetryStep::kBlock;
  Event e = make_event(EventKind::kBlockingCall);
  e.flags = kBlockingRetry | (timed ? kBlockingTimed : 0);
  e.addr = reinterpret_cast<uintptr_t>(key);
  e.addr2 = reinterpret_cast<uintptr_t>(name);
  e.value = attempt;
  Verdict v = emit(t, e);
  // Engines that do not model blocking (race, ...) leave the verdict alone:
  // one non-blocking attempt, then the blocking call.
  if (!v.skip_real) return attempt == 0 ? RetryStep::kTry : RetryStep::kBlock;
  if (v.result == 0) return RetryStep::kTry;
  return timed ? RetryStep::kTimedOut : RetryStep::kBlock;
}

void wake_attempts(const void *key) {
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(EventKind::kBlockingCall);
  e.flags = kBlockingRetryWake;
  e.addr = reinterpret_cast<uintptr_t>(key);
  emit(t, e);
}

bool blocking_calls_modelled() {
  Engine *e = leading_engine();
  return e && cstr_eq(e->name(), "explore");
}

}  // namespace snag
