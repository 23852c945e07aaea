// pthread mutexes (all types; plain, try, timed and clock locks) and spin
// locks. std::mutex, recursive_mutex, timed_mutex and
// recursive_timed_mutex come through here.
#include <errno.h>
#include <pthread.h>

#include "core/prefetch.h"
#include "intercept/lock_events.h"

using namespace snag;

SNAG_REAL(int, pthread_mutex_init, (pthread_mutex_t *, const pthread_mutexattr_t *))
SNAG_REAL(int, pthread_mutex_destroy, (pthread_mutex_t *))
SNAG_REAL(int, pthread_mutex_lock, (pthread_mutex_t *))
SNAG_REAL(int, pthread_mutex_trylock, (pthread_mutex_t *))
SNAG_REAL(int, pthread_mutex_timedlock, (pthread_mutex_t *, const struct timespec *))
SNAG_REAL(int, pthread_mutex_clocklock, (pthread_mutex_t *, clockid_t, const struct timespec *))
SNAG_REAL(int, pthread_mutex_unlock, (pthread_mutex_t *))
SNAG_REAL(int, pthread_spin_init, (pthread_spinlock_t *, int))
SNAG_REAL(int, pthread_spin_destroy, (pthread_spinlock_t *))
SNAG_REAL(int, pthread_spin_lock, (pthread_spinlock_t *))
SNAG_REAL(int, pthread_spin_trylock, (pthread_spinlock_t *))
SNAG_REAL(int, pthread_spin_unlock, (pthread_spinlock_t *))

namespace {

// glibc keeps the mutex type in the mutex itself; statically initialized
// mutexes (PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP) never pass through init.
// The real function writes the mutex next: its line is fetched for writing
// before the type is read, or a mutex last used on another core moved twice
// (read shared here, then upgraded by the real lock's compare-and-swap).
uint32_t mutex_flags(pthread_mutex_t *m) {
  prefetch_for_write(m);
  uint32_t flags = kLockMutex;
  if ((m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE) flags |= kLockRecursive;
  return flags;
}

// The real lock, after up to g_mutex_spin tries of a held mutex. Under the
// race engine a critical section runs longer than natively (its accesses
// are checked), so a contended mutex is more often found held; glibc's lock
// then sleeps in the kernel at once and its holder's unlock pays a wake-up,
// which cost a queue-based pipeline more than the checks themselves
// (bench/results/race_bench.txt, section 104). A holder on another CPU
// usually releases within the wait between tries. Only EBUSY means "held":
// any other answer of trylock (EOWNERDEAD of a robust mutex, EAGAIN of a
// recursive one at its limit) is the lock's answer too.
int lock_spinning_first(pthread_mutex_t *m) {
  for (uint32_t tries = g_mutex_spin; tries > 0; --tries) {
    int rc = real_pthread_mutex_trylock()(m);
    if (rc != EBUSY) return rc;
    for (int i = 0; i < 32 && __atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED) != 0; ++i)
      cpu_pause();
  }
  return real_pthread_mutex_lock()(m);
}

}  // namespace

SNAG_INTERCEPTOR int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr) {
  int rc = real_pthread_mutex_init()(m, attr);
  if (rc == 0) observed_lifecycle(EventKind::kLockCreate, m, mutex_flags(m));
  return rc;
}

SNAG_INTERCEPTOR int pthread_mutex_destroy(pthread_mutex_t *m) {
  observed_lifecycle(EventKind::kLockDestroy, m, mutex_flags(m));
  return real_pthread_mutex_destroy()(m);
}

SNAG_INTERCEPTOR int pthread_mutex_lock(pthread_mutex_t *m) {
  return observed_acquire(m, mutex_flags(m), [&] { return lock_spinning_first(m); });
}

SNAG_INTERCEPTOR int pthread_mutex_trylock(pthread_mutex_t *m) {
  return observed_acquire(m, mutex_flags(m) | kLockTry,
                          [&] { return real_pthread_mutex_trylock()(m); });
}

SNAG_INTERCEPTOR int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *deadline) {
  return observed_acquire(m, mutex_flags(m) | kLockTimed,
                          [&] { return real_pthread_mutex_timedlock()(m, deadline); });
}

SNAG_INTERCEPTOR int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clock,
                                           const struct timespec *deadline) {
  return observed_acquire(m, mutex_flags(m) | kLockTimed,
                          [&] { return real_pthread_mutex_clocklock()(m, clock, deadline); });
}

SNAG_INTERCEPTOR int pthread_mutex_unlock(pthread_mutex_t *m) {
  return observed_release(m, mutex_flags(m), [&] { return real_pthread_mutex_unlock()(m); });
}

SNAG_INTERCEPTOR int pthread_spin_init(pthread_spinlock_t *s, int shared) {
  int rc = real_pthread_spin_init()(s, shared);
  if (rc == 0) observed_lifecycle(EventKind::kLockCreate, (void *)s, kLockSpin);
  return rc;
}

SNAG_INTERCEPTOR int pthread_spin_destroy(pthread_spinlock_t *s) {
  observed_lifecycle(EventKind::kLockDestroy, (void *)s, kLockSpin);
  return real_pthread_spin_destroy()(s);
}

SNAG_INTERCEPTOR int pthread_spin_lock(pthread_spinlock_t *s) {
  return observed_acquire((void *)s, kLockSpin, [&] { return real_pthread_spin_lock()(s); });
}

SNAG_INTERCEPTOR int pthread_spin_trylock(pthread_spinlock_t *s) {
  return observed_acquire((void *)s, kLockSpin | kLockTry,
                          [&] { return real_pthread_spin_trylock()(s); });
}

SNAG_INTERCEPTOR int pthread_spin_unlock(pthread_spinlock_t *s) {
  return observed_release((void *)s, kLockSpin, [&] { return real_pthread_spin_unlock()(s); });
}
