// Function-local statics: the compiler guards their initialization with
// __cxa_guard_acquire/release/abort from libstdc++ (libsupc++).
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(int, __cxa_guard_acquire, (uint64_t *))
SNAG_REAL(void, __cxa_guard_release, (uint64_t *))
SNAG_REAL(void, __cxa_guard_abort, (uint64_t *))

namespace {
void guard_event(EventKind kind, uint64_t *guard, uint64_t value) {
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(kind);
  e.addr = reinterpret_cast<uintptr_t>(guard);
  e.value = value;
  emit(t, e);
}
}  // namespace

SNAG_INTERCEPTOR int __cxa_guard_acquire(uint64_t *guard) {
  int must_initialize = real___cxa_guard_acquire()(guard);
  guard_event(EventKind::kGuardAcquired, guard, static_cast<uint64_t>(must_initialize));
  return must_initialize;
}

SNAG_INTERCEPTOR void __cxa_guard_release(uint64_t *guard) {
  guard_event(EventKind::kGuardReleased, guard, 0);
  real___cxa_guard_release()(guard);
}

SNAG_INTERCEPTOR void __cxa_guard_abort(uint64_t *guard) {
  guard_event(EventKind::kGuardAborted, guard, 0);
  real___cxa_guard_abort()(guard);
}
