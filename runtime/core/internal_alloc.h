// The runtime's own allocator. The runtime cannot use malloc: malloc is
// intercepted (so calling it would re-enter the runtime) and the program may
// be inside malloc when a hook runs. Memory comes straight from mmap, split
// into size classes (16-byte steps, then quarter steps) with per-class free
// lists.
#pragma once

#include <stddef.h>

namespace snag {

void *internal_alloc(size_t size);          // zero-filled
void internal_free(void *ptr);              // ptr may be null
void *internal_realloc(void *ptr, size_t size);

// Pages straight from the kernel, for large tables (shadow memory, depots).
void *map_pages(size_t size);               // zero-filled, page-rounded
void unmap_pages(void *ptr, size_t size);

// Fork support: the allocator's lock is taken before fork and released on
// both sides after it (in the child it is free anyway: core/spinlock.h).
void internal_alloc_lock_for_fork();
void internal_alloc_unlock_after_fork();

// Typed helpers.
template <typename T>
T *internal_new_array(size_t count) {
  return static_cast<T *>(internal_alloc(sizeof(T) * count));
}

}  // namespace snag
