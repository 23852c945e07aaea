// Every call that makes, duplicates or closes a file descriptor, and the
// socket and epoll calls that hand work between threads, told to the
// descriptor model (intercept/fd_model.h). Creation is reported after the
// real call succeeded, close before the real close: once the kernel has the
// number back, another thread may get it from its own open.
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "intercept/blocking_call.h"
#include "intercept/fd_model.h"
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(int, open, (const char *, int, ...))
SNAG_REAL(int, open64, (const char *, int, ...))
SNAG_REAL(int, openat, (int, const char *, int, ...))
SNAG_REAL(int, openat64, (int, const char *, int, ...))
SNAG_REAL(int, creat, (const char *, mode_t))
SNAG_REAL(int, creat64, (const char *, mode_t))
SNAG_REAL(int, socket, (int, int, int))
SNAG_REAL(int, socketpair, (int, int, int, int *))
SNAG_REAL(int, accept, (int, struct sockaddr *, socklen_t *))
SNAG_REAL(int, accept4, (int, struct sockaddr *, socklen_t *, int))
SNAG_REAL(int, connect, (int, const struct sockaddr *, socklen_t))
SNAG_REAL(int, dup, (int))
SNAG_REAL(int, dup2, (int, int))
SNAG_REAL(int, dup3, (int, int, int))
SNAG_REAL(int, pipe, (int *))
SNAG_REAL(int, pipe2, (int *, int))
SNAG_REAL(int, epoll_create, (int))
SNAG_REAL(int, epoll_create1, (int))
SNAG_REAL(int, epoll_ctl, (int, int, int, struct epoll_event *))
SNAG_REAL(int, epoll_wait, (int, struct epoll_event *, int, int))
SNAG_REAL(int, epoll_pwait, (int, struct epoll_event *, int, int, const sigset_t *))
SNAG_REAL(int, eventfd, (unsigned int, int))
SNAG_REAL(int, signalfd, (int, const sigset_t *, int))
SNAG_REAL(int, timerfd_create, (int, int))
SNAG_REAL(int, inotify_init, ())
SNAG_REAL(int, inotify_init1, (int))
SNAG_REAL(int, close, (int))
SNAG_REAL(FILE *, fopen, (const char *, const char *))
SNAG_REAL(FILE *, fopen64, (const char *, const char *))
SNAG_REAL(FILE *, fdopen, (int, const char *))
SNAG_REAL(int, fclose, (FILE *))
SNAG_REAL(int, fileno, (FILE *))

namespace {

int made(int fd) {
  if (fd >= 0) fd::created(fd);
  return fd;
}

// open's third argument exists only when the flags create a file.
mode_t mode_argument(int flags, va_list args) {
  bool creates = (flags & O_CREAT) != 0;
#ifdef O_TMPFILE
  creates = creates || (flags & O_TMPFILE) == O_TMPFILE;
#endif
  return creates ? static_cast<mode_t>(va_arg(args, int)) : 0;
}

FILE *stream_made(FILE *f) {
  if (f) made(real_fileno()(f));
  return f;
}

}  // namespace

SNAG_INTERCEPTOR int open(const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  return made(real_open()(path, flags, mode));
}

SNAG_INTERCEPTOR int open64(const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  return made(real_open64()(path, flags, mode));
}

SNAG_INTERCEPTOR int openat(int dir, const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  if (dir != AT_FDCWD) fd::used(dir);
  return made(real_openat()(dir, path, flags, mode));
}

SNAG_INTERCEPTOR int openat64(int dir, const char *path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  if (dir != AT_FDCWD) fd::used(dir);
  return made(real_openat64()(dir, path, flags, mode));
}

SNAG_INTERCEPTOR int creat(const char *path, mode_t mode) { return made(real_creat()(path, mode)); }
SNAG_INTERCEPTOR int creat64(const char *path, mode_t mode) { return made(real_creat64()(path, mode)); }

SNAG_INTERCEPTOR int socket(int domain, int type, int protocol) {
  int fd = real_socket()(domain, type, protocol);
  if (fd >= 0) fd::created_socket(fd);
  return fd;
}

SNAG_INTERCEPTOR int socketpair(int domain, int type, int protocol, int fds[2]) {
  int rc = real_socketpair()(domain, type, protocol, fds);
  if (rc == 0) fd::created_pair(fds);
  return rc;
}

namespace {

// Under the controlled scheduler a wait for a connection or for readiness
// waits in its model, so that the thread that would end it can run
// (blocking_call.h); an O_NONBLOCK socket never waits.
void wait_for_connection(const char *name, int fd) {
  pollfd p = {fd, POLLIN, 0};
  announce_blocking_call(name, &p, 1, -1, true);
}

// True when the scheduler chose that the wait times out: the call is then
// made without waiting.
bool epoll_wait_times_out(const char *name, int epfd, int timeout) {
  pollfd p = {epfd, POLLIN, 0};
  return timeout != 0 && announce_blocking_call(name, &p, 1, timeout, false);
}

}  // namespace

// A connect is ordered before the accept that takes the connection.
SNAG_INTERCEPTOR int connect(int fd, const struct sockaddr *addr, socklen_t len) {
  fd::used(fd);
  fd::send(fd);
  return real_connect()(fd, addr, len);
}

SNAG_INTERCEPTOR int accept(int fd, struct sockaddr *addr, socklen_t *len) {
  fd::used(fd);
  wait_for_connection("accept", fd);
  int conn = real_accept()(fd, addr, len);
  if (conn >= 0) {
    fd::receive(fd);
    fd::created_socket(conn);
  }
  return conn;
}

SNAG_INTERCEPTOR int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
  fd::used(fd);
  wait_for_connection("accept4", fd);
  int conn = real_accept4()(fd, addr, len, flags);
  if (conn >= 0) {
    fd::receive(fd);
    fd::created_socket(conn);
  }
  return conn;
}

SNAG_INTERCEPTOR int dup(int original) {
  int copy = real_dup()(original);
  if (copy >= 0) fd::duplicated(original, copy);
  return copy;
}

// dup2 and dup3 put the original's file at a number the program chose: a use
// of that number whether it was open or not (fd_model.h).
SNAG_INTERCEPTOR int dup2(int original, int copy) {
  int rc = real_dup2()(original, copy);
  if (rc >= 0 && copy != original) fd::duplicated_onto(original, rc);
  return rc;
}

SNAG_INTERCEPTOR int dup3(int original, int copy, int flags) {
  int rc = real_dup3()(original, copy, flags);
  if (rc >= 0) fd::duplicated_onto(original, rc);
  return rc;
}

SNAG_INTERCEPTOR int pipe(int fds[2]) {
  int rc = real_pipe()(fds);
  if (rc == 0) fd::created_pair(fds);
  return rc;
}

SNAG_INTERCEPTOR int pipe2(int fds[2], int flags) {
  int rc = real_pipe2()(fds, flags);
  if (rc == 0) fd::created_pair(fds);
  return rc;
}

// What a thread registers with an epoll set is ordered before the events
// another thread's epoll_wait returns from it.
SNAG_INTERCEPTOR int epoll_create(int size) { return made(real_epoll_create()(size)); }
SNAG_INTERCEPTOR int epoll_create1(int flags) { return made(real_epoll_create1()(flags)); }

SNAG_INTERCEPTOR int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event) {
  fd::used(epfd);
  fd::used(fd);
  fd::send(epfd);
  return real_epoll_ctl()(epfd, op, fd, event);
}

SNAG_INTERCEPTOR int epoll_wait(int epfd, struct epoll_event *events, int max, int timeout) {
  fd::used(epfd);
  if (epoll_wait_times_out("epoll_wait", epfd, timeout)) timeout = 0;
  int n = real_epoll_wait()(epfd, events, max, timeout);
  if (n > 0) fd::receive(epfd);
  return n;
}

SNAG_INTERCEPTOR int epoll_pwait(int epfd, struct epoll_event *events, int max, int timeout,
                               const sigset_t *mask) {
  fd::used(epfd);
  if (epoll_wait_times_out("epoll_pwait", epfd, timeout)) timeout = 0;
  int n = real_epoll_pwait()(epfd, events, max, timeout, mask);
  if (n > 0) fd::receive(epfd);
  return n;
}

SNAG_INTERCEPTOR int eventfd(unsigned int initial, int flags) {
  return made(real_eventfd()(initial, flags));
}

// signalfd with an existing descriptor changes its mask: a use, not a new one.
SNAG_INTERCEPTOR int signalfd(int fd, const sigset_t *mask, int flags) {
  if (fd >= 0) fd::used(fd);
  int rc = real_signalfd()(fd, mask, flags);
  return fd < 0 ? made(rc) : rc;
}

SNAG_INTERCEPTOR int timerfd_create(int clock, int flags) {
  return made(real_timerfd_create()(clock, flags));
}
SNAG_INTERCEPTOR int inotify_init() { return made(real_inotify_init()()); }
SNAG_INTERCEPTOR int inotify_init1(int flags) { return made(real_inotify_init1()(flags)); }

SNAG_INTERCEPTOR int close(int fd) {
  fd::closing(fd);
  return real_close()(fd);
}

// Streams own a descriptor: opening one creates it, closing one closes it
// (libc's own open and close inside are not interposed).
SNAG_INTERCEPTOR FILE *fopen(const char *path, const char *mode) {
  return stream_made(real_fopen()(path, mode));
}
SNAG_INTERCEPTOR FILE *fopen64(const char *path, const char *mode) {
  return stream_made(real_fopen64()(path, mode));
}

SNAG_INTERCEPTOR FILE *fdopen(int fd, const char *mode) {
  fd::used(fd);
  return real_fdopen()(fd, mode);
}

SNAG_INTERCEPTOR int fclose(FILE *f) {
  if (f) fd::closing(real_fileno()(f));
  return real_fclose()(f);
}

SNAG_INTERCEPTOR int fileno(FILE *f) { return real_fileno()(f); }

// ThreadSanitizer's runtime names its interceptors __interceptor_NAME, and
// programs that replace a libc function call them to reach the original.
// (An alias has no attributes of its own; GCC's warning about that is noise.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmissing-attributes"
#endif
SNAG_INTERCEPTOR FILE *__interceptor_fopen(const char *, const char *) __attribute__((alias("fopen")));
SNAG_INTERCEPTOR int __interceptor_fileno(FILE *) __attribute__((alias("fileno")));
SNAG_INTERCEPTOR int __interceptor_close(int) __attribute__((alias("close")));
SNAG_INTERCEPTOR int __interceptor_open(const char *, int, ...) __attribute__((alias("open")));
SNAG_INTERCEPTOR int __interceptor_pipe(int *) __attribute__((alias("pipe")));
SNAG_INTERCEPTOR int __interceptor_dup(int) __attribute__((alias("dup")));
SNAG_INTERCEPTOR int __interceptor_dup2(int, int) __attribute__((alias("dup2")));
SNAG_INTERCEPTOR int __interceptor_socket(int, int, int) __attribute__((alias("socket")));
