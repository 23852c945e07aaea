// POSIX semaphores. (std::counting_semaphore in libstdc++ 12 is built on
// atomics and futex waits, see futex.cpp.)
#include <semaphore.h>

#include "intercept/real.h"

using namespace snag;

SNAG_REAL(int, sem_post, (sem_t *))
SNAG_REAL(int, sem_wait, (sem_t *))
SNAG_REAL(int, sem_trywait, (sem_t *))
SNAG_REAL(int, sem_timedwait, (sem_t *, const struct timespec *))
SNAG_REAL(int, sem_clockwait, (sem_t *, clockid_t, const struct timespec *))

namespace {

template <typename Real>
int observed_sem_wait(sem_t *s, uint32_t flags, Real real) {
  ThreadState *t = observing_thread();
  if (!t) return real();
  Event e = make_event(EventKind::kSemWait);
  e.addr = reinterpret_cast<uintptr_t>(s);
  e.flags = flags;
  Verdict v = emit(t, e);
  int rc = v.skip_real ? static_cast<int>(v.result) : real();
  e.kind = rc == 0 ? EventKind::kSemAcquired : EventKind::kSemFailed;
  emit(t, e);
  return rc;
}

}  // namespace

SNAG_INTERCEPTOR int sem_post(sem_t *s) {
  ThreadState *t = observing_thread();
  if (t) {
    Event e = make_event(EventKind::kSemPost);
    e.addr = reinterpret_cast<uintptr_t>(s);
    Verdict v = emit(t, e);
    if (v.skip_real) return static_cast<int>(v.result);
  }
  return real_sem_post()(s);
}

SNAG_INTERCEPTOR int sem_wait(sem_t *s) {
  return observed_sem_wait(s, 0, [&] { return real_sem_wait()(s); });
}

SNAG_INTERCEPTOR int sem_trywait(sem_t *s) {
  return observed_sem_wait(s, kLockTry, [&] { return real_sem_trywait()(s); });
}

SNAG_INTERCEPTOR int sem_timedwait(sem_t *s, const struct timespec *deadline) {
  return observed_sem_wait(s, kLockTimed, [&] { return real_sem_timedwait()(s, deadline); });
}

SNAG_INTERCEPTOR int sem_clockwait(sem_t *s, clockid_t clock, const struct timespec *deadline) {
  return observed_sem_wait(s, kLockTimed,
                           [&] { return real_sem_clockwait()(s, clock, deadline); });
}
