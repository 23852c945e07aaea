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

// Like map_pages, for tables that never hold a lockset id (lock addresses,
// pointers, synchronization variables): for_each_runtime_mapping does not
// visit them, where their words would only look like ids.
void *map_pages_unvisited(size_t size);

// Visits every range map_pages gave out that unmap_pages did not take back
// (the runtime's own memory: tables, records, histories), under a lock that
// unmap_pages takes too, so a range stays mapped while it is visited. Pages
// may be given back (read as zeros) or never touched. `visit` must neither
// map nor unmap pages. For the race engine's search of the lockset ids its
// memory still names (lockset_references.h).
void for_each_runtime_mapping(void (*visit)(void *context, const char *begin, size_t size), void *context);

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
