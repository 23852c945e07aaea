// pthread reader-writer locks. std::shared_mutex and shared_timed_mutex come
// through here. Unlocks do not say which mode they release; engines know
// which mode the thread holds.
#include <pthread.h>

#include "intercept/lock_events.h"

using namespace snag;

SNAG_REAL(int, pthread_rwlock_init, (pthread_rwlock_t *, const pthread_rwlockattr_t *))
SNAG_REAL(int, pthread_rwlock_destroy, (pthread_rwlock_t *))
SNAG_REAL(int, pthread_rwlock_rdlock, (pthread_rwlock_t *))
SNAG_REAL(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t *))
SNAG_REAL(int, pthread_rwlock_timedrdlock, (pthread_rwlock_t *, const struct timespec *))
SNAG_REAL(int, pthread_rwlock_clockrdlock,
          (pthread_rwlock_t *, clockid_t, const struct timespec *))
SNAG_REAL(int, pthread_rwlock_wrlock, (pthread_rwlock_t *))
SNAG_REAL(int, pthread_rwlock_trywrlock, (pthread_rwlock_t *))
SNAG_REAL(int, pthread_rwlock_timedwrlock, (pthread_rwlock_t *, const struct timespec *))
SNAG_REAL(int, pthread_rwlock_clockwrlock,
          (pthread_rwlock_t *, clockid_t, const struct timespec *))
SNAG_REAL(int, pthread_rwlock_unlock, (pthread_rwlock_t *))

namespace {
constexpr uint32_t kRead = kLockRw | kLockRead;
constexpr uint32_t kWrite = kLockRw;
}  // namespace

SNAG_INTERCEPTOR int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr) {
  int rc = real_pthread_rwlock_init()(l, attr);
  if (rc == 0) observed_lifecycle(EventKind::kLockCreate, l, kLockRw);
  return rc;
}

SNAG_INTERCEPTOR int pthread_rwlock_destroy(pthread_rwlock_t *l) {
  observed_lifecycle(EventKind::kLockDestroy, l, kLockRw);
  return real_pthread_rwlock_destroy()(l);
}

SNAG_INTERCEPTOR int pthread_rwlock_rdlock(pthread_rwlock_t *l) {
  return observed_acquire(l, kRead, [&] { return real_pthread_rwlock_rdlock()(l); });
}

SNAG_INTERCEPTOR int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
  return observed_acquire(l, kRead | kLockTry, [&] { return real_pthread_rwlock_tryrdlock()(l); });
}

SNAG_INTERCEPTOR int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *d) {
  return observed_acquire(l, kRead | kLockTimed,
                          [&] { return real_pthread_rwlock_timedrdlock()(l, d); });
}

SNAG_INTERCEPTOR int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t c,
                                              const struct timespec *d) {
  return observed_acquire(l, kRead | kLockTimed,
                          [&] { return real_pthread_rwlock_clockrdlock()(l, c, d); });
}

SNAG_INTERCEPTOR int pthread_rwlock_wrlock(pthread_rwlock_t *l) {
  return observed_acquire(l, kWrite, [&] { return real_pthread_rwlock_wrlock()(l); });
}

SNAG_INTERCEPTOR int pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
  return observed_acquire(l, kWrite | kLockTry, [&] { return real_pthread_rwlock_trywrlock()(l); });
}

SNAG_INTERCEPTOR int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *d) {
  return observed_acquire(l, kWrite | kLockTimed,
                          [&] { return real_pthread_rwlock_timedwrlock()(l, d); });
}

SNAG_INTERCEPTOR int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t c,
                                              const struct timespec *d) {
  return observed_acquire(l, kWrite | kLockTimed,
                          [&] { return real_pthread_rwlock_clockwrlock()(l, c, d); });
}

SNAG_INTERCEPTOR int pthread_rwlock_unlock(pthread_rwlock_t *l) {
  return observed_release(l, kLockRw, [&] { return real_pthread_rwlock_unlock()(l); });
}
