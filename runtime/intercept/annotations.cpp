// Annotations: snag's own (include/snag/annotations.h) and
// ThreadSanitizer's, so code annotated for ThreadSanitizer works unchanged.
// Ignore ranges are per-thread counters checked by the access hooks; the
// others become events for the engine.
#include "core/api_calls.h"
#include "core/sites.h"
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

SNAG_INTERCEPTOR void snag_annotate_happens_before(const volatile void *addr) {
  annotate(EventKind::kAnnotateHappensBefore, addr, 0);
}
SNAG_INTERCEPTOR void snag_annotate_happens_after(const volatile void *addr) {
  annotate(EventKind::kAnnotateHappensAfter, addr, 0);
}
SNAG_INTERCEPTOR void snag_annotate_benign_race(const volatile void *addr, size_t size,
                                              const char *) {
  annotate(EventKind::kAnnotateBenignRace, addr, size);
}
SNAG_INTERCEPTOR void snag_annotate_ignore_reads_begin() { adjust(&ThreadState::ignore_reads, 1); }
SNAG_INTERCEPTOR void snag_annotate_ignore_reads_end() { adjust(&ThreadState::ignore_reads, -1); }
SNAG_INTERCEPTOR void snag_annotate_ignore_writes_begin() { adjust(&ThreadState::ignore_writes, 1); }
SNAG_INTERCEPTOR void snag_annotate_ignore_writes_end() { adjust(&ThreadState::ignore_writes, -1); }

// ThreadSanitizer's dynamic annotations (file and line come from its macros).
SNAG_INTERCEPTOR void AnnotateHappensBefore(const char *, int, const volatile void *addr) {
  snag_annotate_happens_before(addr);
}
SNAG_INTERCEPTOR void AnnotateHappensAfter(const char *, int, const volatile void *addr) {
  snag_annotate_happens_after(addr);
}
SNAG_INTERCEPTOR void AnnotateBenignRaceSized(const char *, int, const volatile void *addr,
                                            size_t size, const char *why) {
  snag_annotate_benign_race(addr, size, why);
}
SNAG_INTERCEPTOR void AnnotateBenignRace(const char *, int, const volatile void *addr,
                                       const char *why) {
  snag_annotate_benign_race(addr, 1, why);
}
SNAG_INTERCEPTOR void AnnotateIgnoreReadsBegin(const char *, int) { snag_annotate_ignore_reads_begin(); }
SNAG_INTERCEPTOR void AnnotateIgnoreReadsEnd(const char *, int) { snag_annotate_ignore_reads_end(); }
SNAG_INTERCEPTOR void AnnotateIgnoreWritesBegin(const char *, int) {
  snag_annotate_ignore_writes_begin();
}
SNAG_INTERCEPTOR void AnnotateIgnoreWritesEnd(const char *, int) { snag_annotate_ignore_writes_end(); }
SNAG_INTERCEPTOR void __tsan_acquire(void *addr) { snag_annotate_happens_after(addr); }
SNAG_INTERCEPTOR void __tsan_release(void *addr) { snag_annotate_happens_before(addr); }

// Members of the program's own thread-unsafe classes
// (SNAG_THREAD_UNSAFE_READ/WRITE, SNAG_THREAD_UNSAFE_BEGIN/END): TSVD points
// like the members of std:: containers. The call the user wrote is the one
// into the annotated member, so the event's site is the caller's line: the
// first frame, going outwards from the annotation, that is not in the
// member itself (an inline site when the member was inlined, else the call
// site that entered it). `size` is the shadow-stack depth below that frame;
// `addr2` the annotation's own site, in the member.
namespace {

bool same_function(const SiteInfo &a, const SiteInfo &b) {
  if (a.function.size != b.function.size) return false;
  for (uint32_t i = 0; i < a.function.size; ++i)
    if (a.function.data[i] != b.function.data[i]) return false;
  return true;
}

void annotated_call_site(ThreadState &t, snag_site_t inner, snag_site_t *site, uint32_t *depth) {
  *site = inner;
  *depth = t.shadow.depth;
  SiteInfo member;
  if (!find_site(inner, &member)) return;
  SiteInfo frame = member;
  // Inlined: a parent in another function is the member's call.
  while (frame.parent) {
    snag_site_t parent = frame.parent;
    if (!find_site(parent, &frame)) return;
    if (!same_function(frame, member)) {
      *site = parent;
      return;
    }
  }
  // Not inlined: the member's own frame was entered from the caller's call.
  uint32_t d = t.shadow.depth;
  if (d > 0 && d <= ShadowStack::kCapacity && t.shadow.frames) {
    *site = t.shadow.frames[d - 1].call_site;
    *depth = d - 1;
  }
}

}  // namespace

SNAG_INTERCEPTOR void snag_annotate_thread_unsafe_begin(const volatile void *object, int is_write,
                                                      const char *operation) {
  if (!g_wants_api_calls) return;
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e{EventKind::kApiBegin};
  e.addr = reinterpret_cast<uintptr_t>(object);
  e.flags = kApiAnnotated | (is_write ? uint32_t(kApiWrite) : 0u);
  e.value = reinterpret_cast<uintptr_t>(operation ? operation : "object");
  e.addr2 = caller_site();  // inside the annotated function: names the operation
  annotated_call_site(*t, e.addr2, &e.site, &e.size);
  emit(t, e);
}

SNAG_INTERCEPTOR void snag_annotate_thread_unsafe_end(const volatile void *object) {
  if (!g_wants_api_calls) return;
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e{EventKind::kApiEnd};
  e.addr = reinterpret_cast<uintptr_t>(object);
  emit(t, e);
}
