// Advisory file locks: flock, lockf, and fcntl's F_SETLKW / F_OFD_SETLKW.
// flock and open-file-description locks exclude each other between threads
// of one process that opened the file separately; all of them exclude other
// processes.
//
// Under the scheduler a blocking lock is taken as non-blocking attempts
// (LOCK_NB, F_TLOCK, F_SETLK; blocking_call.h): between attempts the waiter
// waits in the model until some thread unlocks a file lock, so the holder
// runs meanwhile. When no other thread can run, the lock can only be
// released from outside (another process, or a close): the waiter then
// waits in the kernel.
//
// Ordering: an unlock happens before the next lock of the same file (by
// device and inode, hashed into a few slots: two files sharing a slot only
// order more than needed, which may hide a race but never invents one).
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "intercept/blocking_call.h"
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(int, flock, (int, int))
SNAG_REAL(int, lockf, (int, int, off_t))
SNAG_REAL(int, fcntl, (int, int, ...))

namespace {

constexpr int kOrderSlots = 64;
char g_file_unlocked;  // the key waiters try again on
char g_file_order[kOrderSlots];

void order_event(EventKind kind, int fd) {
  ThreadState *t = observing_thread();
  if (!t) return;
  struct stat st;
  if (raw_syscall(SYS_fstat, fd, reinterpret_cast<long>(&st)) != 0) return;
  uint64_t h = (uint64_t(st.st_dev) * 0x9e3779b97f4a7c15ull) ^ uint64_t(st.st_ino);
  Event e{kind};
  e.addr = reinterpret_cast<uintptr_t>(&g_file_order[(h ^ (h >> 29)) % kOrderSlots]);
  emit(t, e);
}

int locked(int rc, int fd) {
  if (rc == 0) order_event(EventKind::kAnnotateHappensAfter, fd);
  return rc;
}

void unlocking(int fd) {
  order_event(EventKind::kAnnotateHappensBefore, fd);
  wake_attempts(&g_file_unlocked);
}

bool busy(int rc) { return rc != 0 && (errno == EWOULDBLOCK || errno == EAGAIN || errno == EACCES); }

// A blocking lock as non-blocking attempts: `attempt` makes one, `block`
// the blocking call.
template <class Attempt, class Block>
int lock_by_attempts(const char *name, int fd, Attempt attempt, Block block) {
  for (uint32_t n = 0;; ++n) {
    if (before_attempt(name, &g_file_unlocked, n, false) != RetryStep::kTry)
      return locked(block(), fd);
    int rc = attempt();
    if (!busy(rc)) return locked(rc, fd);
  }
}

}  // namespace

SNAG_INTERCEPTOR int flock(int fd, int operation) {
  if (operation & LOCK_UN) {
    unlocking(fd);
    return real_flock()(fd, operation);
  }
  // A downgrade from exclusive to shared lets other shared lockers in.
  if (operation & LOCK_SH) wake_attempts(&g_file_unlocked);
  if (operation & LOCK_NB) return locked(real_flock()(fd, operation), fd);
  return lock_by_attempts(
      "flock", fd, [&] { return real_flock()(fd, operation | LOCK_NB); },
      [&] { return real_flock()(fd, operation); });
}

SNAG_INTERCEPTOR int lockf(int fd, int command, off_t length) {
  if (command == F_ULOCK) {
    unlocking(fd);
    return real_lockf()(fd, command, length);
  }
  if (command != F_LOCK) return locked(real_lockf()(fd, command, length), fd);
  return lock_by_attempts(
      "lockf", fd, [&] { return real_lockf()(fd, F_TLOCK, length); },
      [&] { return real_lockf()(fd, F_LOCK, length); });
}

namespace {

int fcntl_locking(const char *name, int fd, int command, void *argument) {
  int non_blocking = command == F_SETLKW ? F_SETLK : command == F_OFD_SETLKW ? F_OFD_SETLK : 0;
  bool sets = command == F_SETLK || command == F_OFD_SETLK || non_blocking;
  auto *lock = static_cast<struct flock *>(argument);
  if (!sets || !lock) return real_fcntl()(fd, command, argument);
  if (lock->l_type == F_UNLCK) {
    unlocking(fd);
    return real_fcntl()(fd, command, argument);
  }
  if (!non_blocking) return locked(real_fcntl()(fd, command, argument), fd);
  return lock_by_attempts(
      name, fd, [&] { return real_fcntl()(fd, non_blocking, argument); },
      [&] { return real_fcntl()(fd, command, argument); });
}

}  // namespace

// fcntl's third argument is an int or a pointer; glibc reads it as a
// pointer too.
SNAG_INTERCEPTOR int fcntl(int fd, int command, ...) {
  va_list args;
  va_start(args, command);
  void *argument = va_arg(args, void *);
  va_end(args);
  return fcntl_locking("fcntl", fd, command, argument);
}

// glibc's other name for it (<fcntl.h> may redirect to it).
SNAG_INTERCEPTOR int fcntl64(int fd, int command, ...) __attribute__((alias("fcntl")));
