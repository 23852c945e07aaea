// Futex waits and wakes. libstdc++'s atomic wait/notify (and so
// std::latch, std::barrier, std::counting_semaphore) and its futures call
// syscall(SYS_futex, ...) directly; this interceptor sees those calls.
#include <linux/futex.h>
#include <stdarg.h>
#include <sys/syscall.h>

#include "intercept/real.h"

using namespace snag;

namespace {

long futex_call(long number, long a1, long a2, long a3, long a4, long a5, long a6) {
  ThreadState *t = observing_thread();
  if (!t) return raw_syscall(number, a1, a2, a3, a4, a5, a6);
  int command = static_cast<int>(a2) & FUTEX_CMD_MASK;
  bool wait = command == FUTEX_WAIT || command == FUTEX_WAIT_BITSET;
  bool wake = command == FUTEX_WAKE || command == FUTEX_WAKE_BITSET;
  if (!wait && !wake) return raw_syscall(number, a1, a2, a3, a4, a5, a6);
  Event e = make_event(wait ? EventKind::kFutexWait : EventKind::kFutexWake);
  e.addr = static_cast<uintptr_t>(a1);
  e.value = static_cast<uint64_t>(a3);  // expected value, or how many to wake
  e.flags = (wait && a4 != 0) ? uint32_t(kLockTimed) : 0u;
  Verdict v = emit(t, e);
  long rc = v.skip_real ? v.result : raw_syscall(number, a1, a2, a3, a4, a5, a6);
  if (wait) {
    e.kind = EventKind::kFutexWoken;
    e.value = rc == 0;
    emit(t, e);
  }
  return rc;
}

}  // namespace

SNAG_INTERCEPTOR long syscall(long number, ...) {
  va_list args;
  va_start(args, number);
  long a1 = va_arg(args, long), a2 = va_arg(args, long), a3 = va_arg(args, long);
  long a4 = va_arg(args, long), a5 = va_arg(args, long), a6 = va_arg(args, long);
  va_end(args);
  if (number == SYS_futex) return futex_call(number, a1, a2, a3, a4, a5, a6);
  return raw_syscall(number, a1, a2, a3, a4, a5, a6);
}
