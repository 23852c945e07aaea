// pthread barriers and pthread_once (std::call_once comes through
// pthread_once in libstdc++).
#include <pthread.h>

#include "intercept/lock_events.h"

using namespace snag;

SNAG_REAL(int, pthread_barrier_init,
          (pthread_barrier_t *, const pthread_barrierattr_t *, unsigned))
SNAG_REAL(int, pthread_barrier_destroy, (pthread_barrier_t *))
SNAG_REAL(int, pthread_barrier_wait, (pthread_barrier_t *))
SNAG_REAL(int, pthread_once, (pthread_once_t *, void (*)()))

namespace {

// pthread_once's initializer takes no argument, so the user's initializer
// travels to the trampoline in the thread's state (the initializer runs on
// the calling thread).
void once_trampoline() {
  ThreadState *t = current_thread();
  void (*init)() = t->pending_once_init;
  t->pending_once_init = nullptr;
  init();
  // Published before pthread_once wakes the threads waiting for it.
  Event e{EventKind::kOnceInitDone};
  e.addr = t->pending_once_addr;
  emit(t, e);
}

}  // namespace

SNAG_INTERCEPTOR int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
                                         unsigned count) {
  int rc = real_pthread_barrier_init()(b, attr, count);
  observed_lifecycle(EventKind::kLockCreate, b, 0);  // no lock flag: not a lock
  touch_object(b, ObjectUse::kCreateOrDestroy);
  return rc;
}

SNAG_INTERCEPTOR int pthread_barrier_destroy(pthread_barrier_t *b) {
  touch_object(b, ObjectUse::kCreateOrDestroy);
  return real_pthread_barrier_destroy()(b);
}

// The wait reads the barrier before it blocks and, except in the thread the
// barrier picked (PTHREAD_BARRIER_SERIAL_THREAD, the one that may destroy
// it), again after it returns and before it synchronizes: a thread still
// leaving the barrier is not ordered before the thread that destroys it.
SNAG_INTERCEPTOR int pthread_barrier_wait(pthread_barrier_t *b) {
  ThreadState *t = observing_thread();
  if (!t) return real_pthread_barrier_wait()(b);
  Event e = make_event(EventKind::kBarrierWait);
  e.addr = reinterpret_cast<uintptr_t>(b);
  Verdict v = emit(t, e);
  touch_object(b, ObjectUse::kEntering);
  int rc = v.skip_real ? static_cast<int>(v.result) : real_pthread_barrier_wait()(b);
  if (rc != PTHREAD_BARRIER_SERIAL_THREAD) touch_object(b, ObjectUse::kLeaving);
  e.kind = EventKind::kBarrierPassed;
  e.value = rc == PTHREAD_BARRIER_SERIAL_THREAD;
  emit(t, e);
  return rc;
}

SNAG_INTERCEPTOR int pthread_once(pthread_once_t *once, void (*init)()) {
  ThreadState *t = observing_thread();
  if (!t) return real_pthread_once()(once, init);
  Event e = make_event(EventKind::kOnceEnter);
  e.addr = reinterpret_cast<uintptr_t>(once);
  emit(t, e);
  void (*saved_init)() = t->pending_once_init;
  uintptr_t saved_addr = t->pending_once_addr;
  t->pending_once_init = init;
  t->pending_once_addr = e.addr;
  int rc = real_pthread_once()(once, once_trampoline);
  t->pending_once_init = saved_init;
  t->pending_once_addr = saved_addr;
  e.kind = EventKind::kOnceExit;
  emit(t, e);
  return rc;
}
