// Prefetching a cache line for writing.
#pragma once

#include "core/platform.h"

namespace snag {

// Asks for the cache line at `p` in exclusive state, ahead of a write to it:
// a line another core wrote last is then moved once, not read shared and
// then upgraded. (__builtin_prefetch's write hint is a plain read prefetch
// on baseline x86-64.)
SNAG_ALWAYS_INLINE void prefetch_for_write(const void *p) {
#if defined(__x86_64__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char *>(p)));
#else
  __builtin_prefetch(p, 1, 3);
#endif
}

}  // namespace snag
