// Data passed through a pipe or socket is ordered: what the writer did before
// write() happens before what the reader does after its read() returned the
// data. A pipe's or socket pair's two ends share one synchronization object;
// any other descriptor has its own. The buffers are the program's memory:
// write() and send() read theirs, read() and recv() write the bytes received.
#include <atomic>
#include <sys/socket.h>
#include <unistd.h>

#include "intercept/blocking_call.h"
#include "intercept/real.h"
#include "snag/abi.h"

using namespace snag;

SNAG_REAL(ssize_t, read, (int, void *, size_t))
SNAG_REAL(ssize_t, write, (int, const void *, size_t))
SNAG_REAL(ssize_t, recv, (int, void *, size_t, int))
SNAG_REAL(ssize_t, send, (int, const void *, size_t, int))
SNAG_REAL(int, pipe, (int *))
SNAG_REAL(int, pipe2, (int *, int))
SNAG_REAL(int, socketpair, (int, int, int, int *))
SNAG_REAL(int, close, (int))
SNAG_REAL(ssize_t, pread, (int, void *, size_t, off_t))
SNAG_REAL(ssize_t, pwrite, (int, const void *, size_t, off_t))

namespace {

// A byte per descriptor gives each one an address to synchronize on; the
// ends of a pipe point at the byte of the first one.
constexpr int kTrackedDescriptors = 4096;
char g_descriptor_sync[kTrackedDescriptors];
std::atomic<int> g_partner[kTrackedDescriptors];  // 1 + the descriptor whose byte to use

int slot_of(int fd) {
  int slot = fd % kTrackedDescriptors;
  int partner = g_partner[slot].load(std::memory_order_acquire);
  return partner ? (partner - 1) % kTrackedDescriptors : slot;
}

void join_ends(int *fds, int rc) {
  if (rc != 0) return;
  g_partner[fds[0] % kTrackedDescriptors].store(fds[0] + 1, std::memory_order_release);
  g_partner[fds[1] % kTrackedDescriptors].store(fds[0] + 1, std::memory_order_release);
}

void descriptor_event(EventKind kind, int fd) {
  if (fd < 0) return;
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(kind);
  e.addr = reinterpret_cast<uintptr_t>(&g_descriptor_sync[slot_of(fd)]);
  e.value = static_cast<uint64_t>(fd);
  emit(t, e);
}

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
  descriptor_event(EventKind::kFdSend, fd);
  may_wait("write", fd, POLLOUT);
  return real_write()(fd, data, size);
}

SNAG_INTERCEPTOR ssize_t send(int fd, const void *data, size_t size, int flags) {
  buffer_read(data, size);
  descriptor_event(EventKind::kFdSend, fd);
  if (!(flags & MSG_DONTWAIT)) may_wait("send", fd, POLLOUT);
  return real_send()(fd, data, size, flags);
}

SNAG_INTERCEPTOR ssize_t read(int fd, void *data, size_t size) {
  may_wait("read", fd, POLLIN);
  ssize_t n = real_read()(fd, data, size);
  if (n > 0) descriptor_event(EventKind::kFdReceive, fd);
  buffer_written(data, n);
  return n;
}

SNAG_INTERCEPTOR ssize_t recv(int fd, void *data, size_t size, int flags) {
  if (!(flags & MSG_DONTWAIT)) may_wait("recv", fd, POLLIN);
  ssize_t n = real_recv()(fd, data, size, flags);
  if (n > 0) descriptor_event(EventKind::kFdReceive, fd);
  buffer_written(data, n);
  return n;
}

// Positioned I/O on files: no hand-off between threads, only the buffers.
SNAG_INTERCEPTOR ssize_t pwrite(int fd, const void *data, size_t size, off_t offset) {
  buffer_read(data, size);
  return real_pwrite()(fd, data, size, offset);
}

SNAG_INTERCEPTOR ssize_t pread(int fd, void *data, size_t size, off_t offset) {
  ssize_t n = real_pread()(fd, data, size, offset);
  buffer_written(data, n);
  return n;
}

SNAG_INTERCEPTOR int pipe(int fds[2]) {
  int rc = real_pipe()(fds);
  join_ends(fds, rc);
  return rc;
}

SNAG_INTERCEPTOR int pipe2(int fds[2], int flags) {
  int rc = real_pipe2()(fds, flags);
  join_ends(fds, rc);
  return rc;
}

SNAG_INTERCEPTOR int socketpair(int domain, int type, int protocol, int fds[2]) {
  int rc = real_socketpair()(domain, type, protocol, fds);
  join_ends(fds, rc);
  return rc;
}

SNAG_INTERCEPTOR int close(int fd) {
  if (fd >= 0) g_partner[fd % kTrackedDescriptors].store(0, std::memory_order_release);
  return real_close()(fd);
}
