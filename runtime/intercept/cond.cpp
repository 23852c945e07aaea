// Condition variables. std::condition_variable and condition_variable_any
// come through here. glibc keeps an old ABI version of every pthread_cond_*
// symbol; the current one is GLIBC_2.3.2.
#include <errno.h>
#include <pthread.h>

#include "intercept/lock_events.h"

using namespace snag;

#define COND_VERSION "GLIBC_2.3.2"
SNAG_REAL_VERSIONED(int, pthread_cond_init, (pthread_cond_t *, const pthread_condattr_t *),
                    COND_VERSION)
SNAG_REAL_VERSIONED(int, pthread_cond_destroy, (pthread_cond_t *), COND_VERSION)
SNAG_REAL_VERSIONED(int, pthread_cond_wait, (pthread_cond_t *, pthread_mutex_t *), COND_VERSION)
SNAG_REAL_VERSIONED(int, pthread_cond_timedwait,
                    (pthread_cond_t *, pthread_mutex_t *, const struct timespec *), COND_VERSION)
SNAG_REAL_VERSIONED(int, pthread_cond_signal, (pthread_cond_t *), COND_VERSION)
SNAG_REAL_VERSIONED(int, pthread_cond_broadcast, (pthread_cond_t *), COND_VERSION)
// Newer than the versioned family: one version only.
SNAG_REAL(int, pthread_cond_clockwait,
          (pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *))

namespace {

template <typename Real>
int observed_wait(pthread_cond_t *c, pthread_mutex_t *m, bool timed, Real real) {
  ThreadState *t = observing_thread();
  if (!t) return real();
  if (!g_sync_hook) touch_object(c, ObjectUse::kEntering);  // else the hook reads it
  Event e = make_event(EventKind::kCondWait);
  e.addr = reinterpret_cast<uintptr_t>(c);
  e.addr2 = reinterpret_cast<uintptr_t>(m);
  e.flags = timed ? uint32_t(kLockTimed) : 0u;
  Verdict v = emit_sync(t, e);
  int rc = v.skip_real ? static_cast<int>(v.result) : real();
  e.kind = EventKind::kCondWoken;
  e.value = rc == ETIMEDOUT;
  emit_sync(t, e);
  return rc;
}

}  // namespace

// The condition variable's own memory (lock_events.h, touch_object): init
// and destroy write it, waits read it, and so do signals, after they have
// published: a signal still inside pthread_cond_signal is not ordered
// before what the woken thread does next, such as destroying or freeing it.
SNAG_INTERCEPTOR int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr) {
  int rc = real_pthread_cond_init()(c, attr);
  observed_lifecycle(EventKind::kLockCreate, c, 0);  // no lock flag: not a lock
  touch_object(c, ObjectUse::kCreateOrDestroy);
  return rc;
}

SNAG_INTERCEPTOR int pthread_cond_destroy(pthread_cond_t *c) {
  touch_object(c, ObjectUse::kCreateOrDestroy);
  return real_pthread_cond_destroy()(c);
}

SNAG_INTERCEPTOR int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  return observed_wait(c, m, false, [&] { return real_pthread_cond_wait()(c, m); });
}

SNAG_INTERCEPTOR int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                          const struct timespec *deadline) {
  return observed_wait(c, m, true, [&] { return real_pthread_cond_timedwait()(c, m, deadline); });
}

SNAG_INTERCEPTOR int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
                                          const struct timespec *deadline) {
  return observed_wait(c, m, true,
                       [&] { return real_pthread_cond_clockwait()(c, m, clock, deadline); });
}

SNAG_INTERCEPTOR int pthread_cond_signal(pthread_cond_t *c) {
  ThreadState *t = observing_thread();
  if (t) {
    Event e = make_event(EventKind::kCondSignal);
    e.addr = reinterpret_cast<uintptr_t>(c);
    Verdict v = emit_sync(t, e);
    if (!g_sync_hook) touch_object(c, ObjectUse::kLeaving);  // else the hook read it
    if (v.skip_real) return static_cast<int>(v.result);
  }
  return real_pthread_cond_signal()(c);
}

SNAG_INTERCEPTOR int pthread_cond_broadcast(pthread_cond_t *c) {
  ThreadState *t = observing_thread();
  if (t) {
    Event e = make_event(EventKind::kCondBroadcast);
    e.addr = reinterpret_cast<uintptr_t>(c);
    Verdict v = emit_sync(t, e);
    if (!g_sync_hook) touch_object(c, ObjectUse::kLeaving);  // else the hook read it
    if (v.skip_real) return static_cast<int>(v.result);
  }
  return real_pthread_cond_broadcast()(c);
}
