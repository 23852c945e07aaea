// Annotations: snag's own (include/snag/annotations.h) and
// ThreadSanitizer's, so code annotated for ThreadSanitizer works unchanged.
// Ignore ranges are per-thread counters checked by the access hooks; the
// others become events for the engine.
#include "intercept/real.h"

using namespace snag;

namespace {

void annotate(EventKind kind, const volatile void *addr, size_t size) {
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e = make_event(kind);
  e.addr = reinterpret_cast<uintptr_t>(addr);
  e.value = size;
  emit(t, e);
}

void adjust(int ThreadState::*counter, int delta) {
  ThreadState *t = observing_thread();
  if (!t) return;
  t->*counter += delta;
  if (t->*counter < 0) t->*counter = 0;  // an unmatched End is harmless
}

}  // namespace

SNAG_INTERFACE void snag_annotate_happens_before(const volatile void *addr) {
  annotate(EventKind::kAnnotateHappensBefore, addr, 0);
}
SNAG_INTERFACE void snag_annotate_happens_after(const volatile void *addr) {
  annotate(EventKind::kAnnotateHappensAfter, addr, 0);
}
SNAG_INTERFACE void snag_annotate_benign_race(const volatile void *addr, size_t size,
                                              const char *) {
  annotate(EventKind::kAnnotateBenignRace, addr, size);
}
SNAG_INTERFACE void snag_annotate_ignore_reads_begin() { adjust(&ThreadState::ignore_reads, 1); }
SNAG_INTERFACE void snag_annotate_ignore_reads_end() { adjust(&ThreadState::ignore_reads, -1); }
SNAG_INTERFACE void snag_annotate_ignore_writes_begin() { adjust(&ThreadState::ignore_writes, 1); }
SNAG_INTERFACE void snag_annotate_ignore_writes_end() { adjust(&ThreadState::ignore_writes, -1); }

// ThreadSanitizer's dynamic annotations (file and line come from its macros).
SNAG_INTERFACE void AnnotateHappensBefore(const char *, int, const volatile void *addr) {
  snag_annotate_happens_before(addr);
}
SNAG_INTERFACE void AnnotateHappensAfter(const char *, int, const volatile void *addr) {
  snag_annotate_happens_after(addr);
}
SNAG_INTERFACE void AnnotateBenignRaceSized(const char *, int, const volatile void *addr,
                                            size_t size, const char *why) {
  snag_annotate_benign_race(addr, size, why);
}
SNAG_INTERFACE void AnnotateBenignRace(const char *, int, const volatile void *addr,
                                       const char *why) {
  snag_annotate_benign_race(addr, 1, why);
}
SNAG_INTERFACE void AnnotateIgnoreReadsBegin(const char *, int) { snag_annotate_ignore_reads_begin(); }
SNAG_INTERFACE void AnnotateIgnoreReadsEnd(const char *, int) { snag_annotate_ignore_reads_end(); }
SNAG_INTERFACE void AnnotateIgnoreWritesBegin(const char *, int) {
  snag_annotate_ignore_writes_begin();
}
SNAG_INTERFACE void AnnotateIgnoreWritesEnd(const char *, int) { snag_annotate_ignore_writes_end(); }
SNAG_INTERFACE void __tsan_acquire(void *addr) { snag_annotate_happens_after(addr); }
SNAG_INTERFACE void __tsan_release(void *addr) { snag_annotate_happens_before(addr); }
