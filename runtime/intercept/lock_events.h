// The shared shape of every lock interceptor: announce the attempt, let the
// engine decide, call the real function, report success or failure.
#pragma once

#include <errno.h>

#include "intercept/real.h"
#include "snag/abi.h"

namespace snag {

template <typename Real>
int observed_acquire(void *lock, uint32_t flags, Real real) {
  ThreadState *t = observing_thread();
  if (!t) return real();
  Event e = make_event(EventKind::kLockBefore);
  e.addr = reinterpret_cast<uintptr_t>(lock);
  e.flags = flags;
  Verdict v = emit_sync(t, e);
  int rc = v.skip_real ? static_cast<int>(v.result) : real();
  // A robust mutex whose owner died is locked all the same (EOWNERDEAD).
  e.kind = rc == 0 || rc == EOWNERDEAD ? EventKind::kLockAcquired : EventKind::kLockFailed;
  e.value = static_cast<uint64_t>(rc);
  emit_sync(t, e);
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
  Verdict v = emit_sync(t, e);
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

// A synchronization object's own memory, for the engines that watch memory:
// creating or destroying it writes it, using it reads it, so a use unordered
// with the destruction (or with the initialization) races on the object.
//
// Its first 16 bytes (two granules; condition variables and barriers are
// larger) stand for it. Init and destroy write both granules; a use reads
// one: the first for a thread coming in (a wait), the second for one still
// in the object after it synchronized (a signal, a barrier wait after it
// opened). A variable remembers one read, so entries and exits kept apart
// mean a destroy is checked against a late exit, not against an earlier,
// ordered entry.
enum class ObjectUse { kCreateOrDestroy, kEntering, kLeaving };

inline void touch_object(const void *object, ObjectUse use) {
  if (!g_access_hook || !observing_thread()) return;
  auto *bytes = static_cast<char *>(const_cast<void *>(object));
  if (use == ObjectUse::kCreateOrDestroy) __snag_write16(bytes, caller_site());
  else __snag_read1(bytes + (use == ObjectUse::kLeaving ? 8 : 0), caller_site());
}

}  // namespace snag
