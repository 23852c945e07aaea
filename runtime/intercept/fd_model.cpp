// The descriptor table behind intercept/fd_model.h: 8 bytes of memory and a
// synchronization address per descriptor number.
#include "intercept/fd_model.h"

#include <atomic>

#include "intercept/real.h"
#include "snag/abi.h"

namespace snag::fd {

namespace {

// Descriptors above this are not tracked (no races on them, no
// happens-before through them): folding them onto lower numbers would make
// unrelated descriptors race.
constexpr int kTracked = 4096;

uint64_t g_memory[kTracked];
char g_own_sync[kTracked];
char g_socket_sync;
// The address a descriptor synchronizes at; 0 means its own byte.
std::atomic<uintptr_t> g_sync[kTracked];
// Open as far as the interceptors saw (dup2 onto an open number closes it).
std::atomic<bool> g_open[kTracked];

bool tracked(int fd) { return fd >= 0 && fd < kTracked; }

uintptr_t sync_address(int fd) {
  uintptr_t shared = g_sync[fd].load(std::memory_order_acquire);
  return shared ? shared : reinterpret_cast<uintptr_t>(&g_own_sync[fd]);
}

void touch(int fd, bool write) {
  if (!tracked(fd) || !g_access_hook || !observing_thread()) return;
  if (write) __snag_write8(&g_memory[fd], caller_site());
  else __snag_read8(&g_memory[fd], caller_site());
}

// A new descriptor: its memory starts over, written by this thread.
void fresh(int fd, uintptr_t sync) {
  if (!tracked(fd)) return;
  g_sync[fd].store(sync, std::memory_order_release);
  g_open[fd].store(true, std::memory_order_relaxed);
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(EventKind::kMemoryFresh);
  e.addr = reinterpret_cast<uintptr_t>(&g_memory[fd]);
  e.value = sizeof g_memory[fd];
  e.flags = kFreshWritten;
  emit(t, e);
}

void sync_event(EventKind kind, int fd) {
  if (!tracked(fd)) return;
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(kind);
  e.addr = sync_address(fd);
  e.value = static_cast<uint64_t>(fd);
  emit(t, e);
}

}  // namespace

void created(int fd) { fresh(fd, 0); }

void created_socket(int fd) { fresh(fd, reinterpret_cast<uintptr_t>(&g_socket_sync)); }

void created_pair(const int fds[2]) {
  if (!tracked(fds[0])) return;
  fresh(fds[0], 0);
  fresh(fds[1], reinterpret_cast<uintptr_t>(&g_own_sync[fds[0]]));
}

void duplicated(int original, int copy) {
  if (!tracked(original)) return;
  used(original);
  fresh(copy, sync_address(original));
}

void duplicated_onto(int original, int copy) {
  if (!tracked(original)) return;
  used(original);
  // A read of the number, as ThreadSanitizer does: programs dup /dev/null
  // or a closed pipe over a descriptor other threads still use, on purpose.
  used(copy);
  if (tracked(copy) && g_open[copy].load(std::memory_order_relaxed)) {
    g_sync[copy].store(sync_address(original), std::memory_order_release);
    return;
  }
  fresh(copy, sync_address(original));
}

void used(int fd) { touch(fd, false); }

void closing(int fd) {
  touch(fd, true);
  if (tracked(fd)) g_open[fd].store(false, std::memory_order_relaxed);
}

void send(int fd) { sync_event(EventKind::kFdSend, fd); }

void receive(int fd) { sync_event(EventKind::kFdReceive, fd); }

}  // namespace snag::fd
