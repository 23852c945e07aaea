/* Included first in every file snag-cc / snag-c++ compile (-include).
 *
 * Code written for ThreadSanitizer tells the race detector about its own
 * synchronization only when it sees one:
 *     #if defined(__has_feature) && __has_feature(thread_sanitizer)
 *     # define ANNOTATE_HAPPENS_BEFORE(a) AnnotateHappensBefore(...)
 * Without -fsanitize=thread that test is false, the annotations compile to
 * nothing, and snag reports races the program has explained. snag accepts
 * ThreadSanitizer's annotations and interface functions (docs/options.md),
 * so it answers the test the way clang -fsanitize=thread does: yes.
 *
 * What else changes, as under clang -fsanitize=thread: libstdc++ sets
 * _GLIBCXX_TSAN (shared_ptr's release then takes the plain atomic path
 * instead of a load-then-plain-store shortcut a race detector would flag);
 * abseil, folly and the like call the __tsan_mutex_* and Annotate* functions,
 * which snag defines. GCC's __SANITIZE_THREAD__ is not defined: clang 14
 * does not define it either.
 *
 * __has_feature is a builtin macro; redefining it is the only way to change
 * one answer. Every other feature is answered by __has_extension, which is
 * true for each feature clang has and also for a few it only accepts as an
 * extension in the current language (c_atomic or c_static_assert in C++,
 * for instance): code testing those sees the extension as available, which
 * it is. */
#ifndef SNAG_TSAN_FEATURE_H
#define SNAG_TSAN_FEATURE_H

/* A system header: -Weverything -Werror builds must not see its reserved names. */
#pragma clang system_header

#if defined(__clang__) && defined(__has_extension)
#define __snag_feature_thread_sanitizer 1
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbuiltin-macro-redefined"
#define __has_feature(x) (__snag_feature_##x + 0 || __has_extension(x))
#pragma clang diagnostic pop
#endif

#endif
