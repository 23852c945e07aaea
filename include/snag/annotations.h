/* Annotations a program can use to tell snag what it cannot see.
 *
 * Each macro compiles to nothing unless the program is built with
 * snag-cc/snag-c++ (which defines __SNAG__). ThreadSanitizer's annotation
 * functions (AnnotateHappensBefore, AnnotateBenignRaceSized,
 * AnnotateIgnoreReadsBegin, __tsan_acquire, ...) are understood as well, so
 * code written for ThreadSanitizer keeps working unchanged.
 */
#ifndef SNAG_ANNOTATIONS_H
#define SNAG_ANNOTATIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void snag_annotate_happens_before(const volatile void *addr);
void snag_annotate_happens_after(const volatile void *addr);
void snag_annotate_benign_race(const volatile void *addr, size_t size, const char *why);
void snag_annotate_ignore_reads_begin(void);
void snag_annotate_ignore_reads_end(void);
void snag_annotate_ignore_writes_begin(void);
void snag_annotate_ignore_writes_end(void);
void snag_annotate_thread_unsafe_begin(const volatile void *object, int is_write,
                                       const char *name);
void snag_annotate_thread_unsafe_end(const volatile void *object);
void snag_annotate_guard_same_variable(const volatile void *addr, size_t size,
                                       const volatile void *as);

#ifdef __cplusplus
}
#endif

#ifdef __SNAG__
/* For `snag learn` / `snag guard`: accesses to [addr, addr+size) count as
 * accesses to `as`, so an invariant spans several variables that must change
 * together (a multi-variable atomicity violation is then one variable's).
 * Call it before the threads start; at most 64 ranges. */
#define SNAG_GUARD_SAME_VARIABLE(addr, size, as) snag_annotate_guard_same_variable(addr, size, as)
/* Everything this thread did before SNAG_HAPPENS_BEFORE(a) happens before
 * what a thread does after a matching SNAG_HAPPENS_AFTER(a). */
#define SNAG_HAPPENS_BEFORE(addr) snag_annotate_happens_before(addr)
#define SNAG_HAPPENS_AFTER(addr) snag_annotate_happens_after(addr)
/* Races on [addr, addr+size) are intended; do not report them. */
#define SNAG_BENIGN_RACE(addr, size, why) snag_annotate_benign_race(addr, size, why)
#define SNAG_IGNORE_READS_BEGIN() snag_annotate_ignore_reads_begin()
#define SNAG_IGNORE_READS_END() snag_annotate_ignore_reads_end()
#define SNAG_IGNORE_WRITES_BEGIN() snag_annotate_ignore_writes_begin()
#define SNAG_IGNORE_WRITES_END() snag_annotate_ignore_writes_end()

/* Your own thread-unsafe classes, for `snag tsv`: the calls of a member that
 * starts with SNAG_THREAD_UNSAFE_READ() or SNAG_THREAD_UNSAFE_WRITE() are
 * reads or writes of *this, like the calls of std::vector's members. Two
 * threads caught inside calls on the same object, one of them a write, are a
 * thread-safety violation, reported at the callers' lines.
 *
 *   class Cache {
 *    public:
 *     int get(int key) const { SNAG_THREAD_UNSAFE_READ(); ... }
 *     void put(int key, int value) { SNAG_THREAD_UNSAFE_WRITE(); ... }
 *   };
 *
 * C code brackets the body itself; `type_name` names the object's type in
 * reports, and the function is the operation:
 *
 *   void ledger_add(struct ledger *l, int amount) {
 *     SNAG_THREAD_UNSAFE_BEGIN(l, 1, "struct ledger");
 *     ...
 *     SNAG_THREAD_UNSAFE_END(l);
 *   }
 */
#define SNAG_THREAD_UNSAFE_BEGIN(object, is_write, type_name) \
  snag_annotate_thread_unsafe_begin(object, is_write, type_name)
#define SNAG_THREAD_UNSAFE_END(object) snag_annotate_thread_unsafe_end(object)
#ifdef __cplusplus
namespace snag_annotations {
/* Ends the annotated call when the member returns or throws. */
class ThreadUnsafeCall {
 public:
  explicit ThreadUnsafeCall(const volatile void *object) : object_(object) {}
  ~ThreadUnsafeCall() { snag_annotate_thread_unsafe_end(object_); }
  ThreadUnsafeCall(const ThreadUnsafeCall &) = delete;
  ThreadUnsafeCall &operator=(const ThreadUnsafeCall &) = delete;

 private:
  const volatile void *object_;
};
}  // namespace snag_annotations
#define SNAG_THREAD_UNSAFE_CALL_(is_write)                                   \
  snag_annotate_thread_unsafe_begin(this, is_write, __PRETTY_FUNCTION__);  \
  ::snag_annotations::ThreadUnsafeCall snag_thread_unsafe_call_(this)
#define SNAG_THREAD_UNSAFE_READ() SNAG_THREAD_UNSAFE_CALL_(0)
#define SNAG_THREAD_UNSAFE_WRITE() SNAG_THREAD_UNSAFE_CALL_(1)
#endif
#else
#define SNAG_GUARD_SAME_VARIABLE(addr, size, as) ((void)0)
#define SNAG_HAPPENS_BEFORE(addr) ((void)0)
#define SNAG_HAPPENS_AFTER(addr) ((void)0)
#define SNAG_BENIGN_RACE(addr, size, why) ((void)0)
#define SNAG_IGNORE_READS_BEGIN() ((void)0)
#define SNAG_IGNORE_READS_END() ((void)0)
#define SNAG_IGNORE_WRITES_BEGIN() ((void)0)
#define SNAG_IGNORE_WRITES_END() ((void)0)
#define SNAG_THREAD_UNSAFE_BEGIN(object, is_write, type_name) ((void)0)
#define SNAG_THREAD_UNSAFE_END(object) ((void)0)
#define SNAG_THREAD_UNSAFE_READ() ((void)0)
#define SNAG_THREAD_UNSAFE_WRITE() ((void)0)
#endif

#endif /* SNAG_ANNOTATIONS_H */
