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

#ifdef __cplusplus
}
#endif

#ifdef __SNAG__
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
#else
#define SNAG_HAPPENS_BEFORE(addr) ((void)0)
#define SNAG_HAPPENS_AFTER(addr) ((void)0)
#define SNAG_BENIGN_RACE(addr, size, why) ((void)0)
#define SNAG_IGNORE_READS_BEGIN() ((void)0)
#define SNAG_IGNORE_READS_END() ((void)0)
#define SNAG_IGNORE_WRITES_BEGIN() ((void)0)
#define SNAG_IGNORE_WRITES_END() ((void)0)
#endif

#endif /* SNAG_ANNOTATIONS_H */
