// Data passed through a pipe or socket is ordered: what the writer did before
// write() happens before what the reader does after its read() returned the
// data (which descriptors synchronize with which: intercept/fd_model.h).
// Every call here also uses its descriptor, which races with an unordered
// close. The buffers are the program's memory: write() and send() read
// theirs, read() and recv() write the bytes received. Creating and closing
// descriptors: intercept/fd_lifetime.cpp.
#include <atomic>
#include <sys/socket.h>
#include <unistd.h>

#include "intercept/blocking_call.h"
#include "intercept/fd_model.h"
#include "intercept/real.h"
#include "snag/abi.h"

using namespace snag;

SNAG_REAL(ssize_t, read, (int, void *, size_t))
SNAG_REAL(ssize_t, write, (int, const void *, size_t))
SNAG_REAL(ssize_t, recv, (int, void *, size_t, int))
SNAG_REAL(ssize_t, send, (int, const void *, size_t, int))
SNAG_REAL(ssize_t, pread, (int, void *, size_t, off_t))
SNAG_REAL(ssize_t, pwrite, (int, const void *, size_t, off_t))

namespace {

void buffer_read(const void *data, size_t size) {
  if (size && g_access_hook && observing_thread())
    __snag_read_range(const_cast<void *>(data), size, caller_site());
}

void buffer_written(void *data, ssize_t received) {
  if (received > 0 && g_access_hook && observing_thread())
    __snag_write_range(data, static_cast<size_t>(received), caller_site());
}

// A read waits for input, a write for room in a pipe's or socket's buffer
// (blocking_call.h); a descriptor in non-blocking mode never waits.
void may_wait(const char *name, int fd, short events) {
  pollfd p = {fd, events, 0};
  announce_blocking_call(name, &p, 1, -1, true);
}

}  // namespace

SNAG_INTERCEPTOR ssize_t write(int fd, const void *data, size_t size) {
  buffer_read(data, size);
  fd::used(fd);
  fd::send(fd);
  may_wait("write", fd, POLLOUT);
  return real_write()(fd, data, size);
}

SNAG_INTERCEPTOR ssize_t send(int fd, const void *data, size_t size, int flags) {
  buffer_read(data, size);
  fd::used(fd);
  fd::send(fd);
  if (!(flags & MSG_DONTWAIT)) may_wait("send", fd, POLLOUT);
  return real_send()(fd, data, size, flags);
}

SNAG_INTERCEPTOR ssize_t read(int fd, void *data, size_t size) {
  may_wait("read", fd, POLLIN);
  ssize_t n = real_read()(fd, data, size);
  fd::used(fd);
  if (n > 0) fd::receive(fd);
  buffer_written(data, n);
  return n;
}

SNAG_INTERCEPTOR ssize_t recv(int fd, void *data, size_t size, int flags) {
  if (!(flags & MSG_DONTWAIT)) may_wait("recv", fd, POLLIN);
  ssize_t n = real_recv()(fd, data, size, flags);
  fd::used(fd);
  if (n > 0) fd::receive(fd);
  buffer_written(data, n);
  return n;
}

// Positioned I/O on files: no hand-off between threads, only the buffers.
SNAG_INTERCEPTOR ssize_t pwrite(int fd, const void *data, size_t size, off_t offset) {
  buffer_read(data, size);
  fd::used(fd);
  return real_pwrite()(fd, data, size, offset);
}

SNAG_INTERCEPTOR ssize_t pread(int fd, void *data, size_t size, off_t offset) {
  ssize_t n = real_pread()(fd, data, size, offset);
  fd::used(fd);
  buffer_written(data, n);
  return n;
}
