// SNAG_DEBUG_ASSERT(cond, "why"): checks an engine invariant in debug builds
// (CMAKE_BUILD_TYPE=Debug, or SNAG_DEBUG_ASSERTS defined, as the engine unit
// tests do) and costs nothing otherwise. A failed check writes one line to
// stderr with write(2) (no malloc, no stdio, no locks: it may fire inside a
// signal handler or the allocator) and aborts, so the core dump shows the
// broken state instead of a wrong report much later.
#pragma once

#include <stdlib.h>

#include "core/platform.h"

#if defined(SNAG_DEBUG_ASSERTS)
#define SNAG_DEBUG_ASSERTS_ON 1
#else
#define SNAG_DEBUG_ASSERTS_ON 0
#endif

namespace snag {

[[noreturn]] __attribute__((noinline, cold)) inline void debug_assert_failed(
    const char *condition, const char *why, const char *file, unsigned line) {
  char digits[12];
  int n = 0;
  do digits[sizeof digits - 1 - n++] = char('0' + line % 10);
  while ((line /= 10) != 0 && n < int(sizeof digits));
  const char *parts[] = {"snag: internal check failed: ", why, " (", condition, ") at ", file, ":"};
  for (const char *p : parts) write_all(2, p, cstr_len(p));
  write_all(2, digits + sizeof digits - n, size_t(n));
  write_all(2, "\n", 1);
  abort();
}

}  // namespace snag

#if SNAG_DEBUG_ASSERTS_ON
#define SNAG_DEBUG_ASSERT(cond, why)                                         \
  do {                                                                       \
    if (__builtin_expect(!(cond), 0))                                        \
      ::snag::debug_assert_failed(#cond, why, __FILE__, __LINE__);           \
  } while (0)
#else
// Not evaluated, but still compiled, so a check cannot rot unnoticed.
#define SNAG_DEBUG_ASSERT(cond, why) \
  do {                               \
    if (false) (void)(cond);         \
  } while (0)
#endif
