// The shared shape of every lock interceptor: announce the attempt, let the
// engine decide, call the real function, report success or failure.
#pragma once

#include "intercept/real.h"

namespace snag {

template <typename Real>
int observed_acquire(void *lock, uint32_t flags, Real real) {
  ThreadState *t = observing_thread();
  if (!t) return real();
  Event e = make_event(EventKind::kLockBefore);
  e.addr = reinterpret_cast<uintptr_t>(lock);
  e.flags = flags;
  Verdict v = emit(t, e);
  int rc = v.skip_real ? static_cast<int>(v.result) : real();
  e.kind = rc == 0 ? EventKind::kLockAcquired : EventKind::kLockFailed;
  e.value = static_cast<uint64_t>(rc);
  emit(t, e);
  return rc;
}

// Unlocks are announced before the real unlock, so that an engine publishes
// what the owner did before another thread can take the lock.
template <typename Real>
int observed_release(void *lock, uint32_t flags, Real real) {
  ThreadState *t = observing_thread();
  if (!t) return real();
  Event e = make_event(EventKind::kUnlock);
  e.addr = reinterpret_cast<uintptr_t>(lock);
  e.flags = flags;
  Verdict v = emit(t, e);
  return v.skip_real ? static_cast<int>(v.result) : real();
}

inline void observed_lifecycle(EventKind kind, void *lock, uint32_t flags) {
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(kind);
  e.addr = reinterpret_cast<uintptr_t>(lock);
  e.flags = flags;
  emit(t, e);
}

}  // namespace snag
