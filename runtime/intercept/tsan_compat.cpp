// The rest of ThreadSanitizer's public interface that annotated code calls,
// so a program written (or a library built) for ThreadSanitizer links and
// means the same under snag: reader-writer lock and custom mutex
// annotations, ignore-sync ranges, thread names, WebKit's benign-race macro,
// and the unaligned load/store helpers. Names and flag values follow
// ThreadSanitizer's public headers (sanitizer/tsan_interface.h,
// dynamic_annotations.h).
#include <string.h>

#include "intercept/lock_events.h"
#include "snag/abi.h"
#include "snag/annotations.h"

using namespace snag;

namespace {

// __tsan_mutex_* flags (sanitizer/tsan_interface.h).
constexpr unsigned kTsanMutexReadLock = 1u << 3;
constexpr unsigned kTsanMutexTryLock = 1u << 4;
constexpr unsigned kTsanMutexTryLockFailed = 1u << 5;

ThreadState *annotating_thread() { return observing_thread(); }

// Accesses inside a custom mutex's own code (between pre_ and post_ calls)
// are its implementation, not the program's data, and so is its
// synchronization: the atomics a failed try-lock reads must not order the
// caller after the owner (the annotations alone say what is acquired).
void ignore_accesses(int delta) {
  ThreadState *t = annotating_thread();
  if (!t) return;
  t->ignore_reads += delta;
  t->ignore_writes += delta;
  t->ignore_sync += delta;
  if (t->ignore_reads < 0) t->ignore_reads = 0;
  if (t->ignore_writes < 0) t->ignore_writes = 0;
  if (t->ignore_sync < 0) t->ignore_sync = 0;
}

void lock_event(EventKind kind, void *lock, uint32_t flags) {
  ThreadState *t = annotating_thread();
  if (!t) return;
  Event e = make_event(kind);
  e.addr = reinterpret_cast<uintptr_t>(lock);
  e.flags = flags;
  emit(t, e);
}

}  // namespace

// Reader-writer locks the program implements itself.
SNAG_INTERCEPTOR void AnnotateRWLockCreate(const char *, int, const volatile void *lock) {
  lock_event(EventKind::kLockCreate, const_cast<void *>(lock), kLockRw);
}
SNAG_INTERCEPTOR void AnnotateRWLockCreateStatic(const char *, int, const volatile void *lock) {
  lock_event(EventKind::kLockCreate, const_cast<void *>(lock), kLockRw);
}
SNAG_INTERCEPTOR void AnnotateRWLockDestroy(const char *, int, const volatile void *lock) {
  lock_event(EventKind::kLockDestroy, const_cast<void *>(lock), kLockRw);
}
SNAG_INTERCEPTOR void AnnotateRWLockAcquired(const char *, int, const volatile void *lock, long is_w) {
  lock_event(EventKind::kLockAcquired, const_cast<void *>(lock), kLockRw | (is_w ? 0u : uint32_t(kLockRead)));
}
SNAG_INTERCEPTOR void AnnotateRWLockReleased(const char *, int, const volatile void *lock, long is_w) {
  lock_event(EventKind::kUnlock, const_cast<void *>(lock), kLockRw | (is_w ? 0u : uint32_t(kLockRead)));
}

SNAG_INTERCEPTOR void AnnotateIgnoreSyncBegin(const char *, int) {
  if (ThreadState *t = annotating_thread()) ++t->ignore_sync;
}
SNAG_INTERCEPTOR void AnnotateIgnoreSyncEnd(const char *, int) {
  ThreadState *t = annotating_thread();
  if (t && t->ignore_sync > 0) --t->ignore_sync;  // an unmatched End is harmless
}

// snag names threads T1, T2, ... in reports; a name the program gives is
// accepted so annotated code links, and not shown yet.
SNAG_INTERCEPTOR void AnnotateThreadName(const char *, int, const char *) {}

SNAG_INTERCEPTOR void WTFAnnotateBenignRaceSized(const char *, int, const volatile void *addr,
                                               long size, const char *why) {
  snag_annotate_benign_race(addr, static_cast<size_t>(size), why);
}

// Custom mutexes (__tsan_mutex_*): a lock is acquired at post_lock (unless a
// try-lock failed) and released at pre_unlock; the mutex's own accesses in
// between the pre_ and post_ calls are ignored.
SNAG_INTERCEPTOR void __tsan_mutex_create(void *lock, unsigned) {
  lock_event(EventKind::kLockCreate, lock, kLockMutex);
}
SNAG_INTERCEPTOR void __tsan_mutex_destroy(void *lock, unsigned) {
  lock_event(EventKind::kLockDestroy, lock, kLockMutex);
}
SNAG_INTERCEPTOR void __tsan_mutex_pre_lock(void *, unsigned) { ignore_accesses(1); }
SNAG_INTERCEPTOR void __tsan_mutex_post_lock(void *lock, unsigned flags, int) {
  ignore_accesses(-1);
  if (flags & kTsanMutexTryLockFailed) return;
  uint32_t kind = (flags & kTsanMutexReadLock) ? uint32_t(kLockRw | kLockRead) : uint32_t(kLockMutex);
  if (flags & kTsanMutexTryLock) kind |= kLockTry;
  lock_event(EventKind::kLockAcquired, lock, kind);
}
SNAG_INTERCEPTOR int __tsan_mutex_pre_unlock(void *lock, unsigned flags) {
  lock_event(EventKind::kUnlock, lock,
             (flags & kTsanMutexReadLock) ? uint32_t(kLockRw | kLockRead) : uint32_t(kLockMutex));
  ignore_accesses(1);
  return 0;
}
SNAG_INTERCEPTOR void __tsan_mutex_post_unlock(void *, unsigned) { ignore_accesses(-1); }
SNAG_INTERCEPTOR void __tsan_mutex_pre_signal(void *, unsigned) { ignore_accesses(1); }
SNAG_INTERCEPTOR void __tsan_mutex_post_signal(void *, unsigned) { ignore_accesses(-1); }
// A mutex calling out to other code (a wait inside a lock) stops ignoring
// accesses for the duration of the call.
SNAG_INTERCEPTOR void __tsan_mutex_pre_divert(void *, unsigned) { ignore_accesses(-1); }
SNAG_INTERCEPTOR void __tsan_mutex_post_divert(void *, unsigned) { ignore_accesses(1); }

// Unaligned loads and stores through helper calls: one access each.
#define SNAG_UNALIGNED(bits, bytes, type)                                                  \
  SNAG_INTERCEPTOR type __sanitizer_unaligned_load##bits(const void *p) {                    \
    __snag_read##bytes(const_cast<void *>(p), caller_site());                              \
    type v;                                                                                \
    memcpy(&v, p, sizeof v);                                                               \
    return v;                                                                              \
  }                                                                                        \
  SNAG_INTERCEPTOR void __sanitizer_unaligned_store##bits(void *p, type v) {                 \
    __snag_write##bytes(p, caller_site());                                                 \
    memcpy(p, &v, sizeof v);                                                               \
  }                                                                                        \
  SNAG_INTERCEPTOR void __tsan_unaligned_read##bytes(void *p) { __snag_read##bytes(p, caller_site()); } \
  SNAG_INTERCEPTOR void __tsan_unaligned_write##bytes(void *p) { __snag_write##bytes(p, caller_site()); }
SNAG_UNALIGNED(16, 2, uint16_t)
SNAG_UNALIGNED(32, 4, uint32_t)
SNAG_UNALIGNED(64, 8, uint64_t)
#undef SNAG_UNALIGNED
