// Heap allocation: the malloc family and C++ operator new/delete. Blocks come
// from glibc's allocator through its __libc_* entry points (no dlsym, which
// itself allocates); engines see every block born (kAlloc, after) and freed
// (kFree, before it can be reused), so memory reused after free starts fresh.
#include <errno.h>
#include <malloc.h>
#include <new>
#include <stdlib.h>

#include "intercept/real.h"

extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);
void *__libc_memalign(size_t, size_t);
void *__libc_valloc(size_t);
void *__libc_pvalloc(size_t);
}

using namespace snag;

namespace {

enum AllocFlags : uint32_t { kFromNew = 1, kFromNewArray = 2 };

// The one engine's heap hook when it has one (core/runtime.h), else every
// engine through emit.
SNAG_ALWAYS_INLINE void deliver(ThreadState *t, const Event &e) {
  if (EventHook hook = g_heap_hook) hook(*t, e);
  else emit(t, e);
}

void *allocated(void *p, size_t size, uint32_t flags = 0) {
  if (!p) return p;
  if (ThreadState *t = observing_thread()) {
    Event e = make_event(EventKind::kAlloc);
    e.addr = reinterpret_cast<uintptr_t>(p);
    e.size = static_cast<uint32_t>(size > 0xffffffffu ? 0xffffffffu : size);
    e.value = size;
    e.flags = flags;
    deliver(t, e);
  }
  return p;
}

void freeing(void *p, uint32_t flags = 0) {
  if (!p) return;
  if (ThreadState *t = observing_thread()) {
    Event e = make_event(EventKind::kFree);
    e.addr = reinterpret_cast<uintptr_t>(p);
    e.flags = flags;
    if (EventHook hook = g_heap_hook) {
      // The engine asks the size itself when its records do not know it.
      e.flags |= kFreeSizeNotGiven;
      hook(*t, e);
    } else {
      e.value = malloc_usable_size(p);
      emit(t, e);
    }
  }
}

[[noreturn]] void out_of_memory() { fatal("out of memory in operator new"); }

void *new_block(size_t size, size_t alignment, uint32_t flags, bool nothrow) {
  if (size == 0) size = 1;
  void *p = alignment > alignof(max_align_t) ? __libc_memalign(alignment, size)
                                             : __libc_malloc(size);
  if (!p && !nothrow) out_of_memory();
  return allocated(p, size, flags);
}

void delete_block(void *p, uint32_t flags) {
  freeing(p, flags);
  __libc_free(p);
}

}  // namespace

SNAG_INTERCEPTOR void *malloc(size_t size) { return allocated(__libc_malloc(size), size); }

SNAG_INTERCEPTOR void *calloc(size_t count, size_t size) {
  return allocated(__libc_calloc(count, size), count * size);
}

SNAG_INTERCEPTOR void *realloc(void *old, size_t size) {
  // The old block may be freed by the call, so the engine forgets it first.
  freeing(old);
  return allocated(__libc_realloc(old, size), size);
}

SNAG_INTERCEPTOR void *reallocarray(void *old, size_t count, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(old, total);
}

SNAG_INTERCEPTOR void free(void *p) {
  freeing(p);
  __libc_free(p);
}

// ThreadSanitizer's names for its own malloc and free: a program that
// replaces malloc reaches the original through them. (An alias has no
// attributes of its own; GCC's warning about that is noise.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-attributes"
#endif
SNAG_INTERCEPTOR void *__interceptor_malloc(size_t) __attribute__((alias("malloc")));
SNAG_INTERCEPTOR void __interceptor_free(void *) __attribute__((alias("free")));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

SNAG_INTERCEPTOR void *memalign(size_t alignment, size_t size) {
  return allocated(__libc_memalign(alignment, size), size);
}

SNAG_INTERCEPTOR void *aligned_alloc(size_t alignment, size_t size) {
  return allocated(__libc_memalign(alignment, size), size);
}

SNAG_INTERCEPTOR int posix_memalign(void **out, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *p = __libc_memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = allocated(p, size);
  return 0;
}

SNAG_INTERCEPTOR void *valloc(size_t size) { return allocated(__libc_valloc(size), size); }

SNAG_INTERCEPTOR void *pvalloc(size_t size) { return allocated(__libc_pvalloc(size), size); }

// operator new and delete, every standard form.
#define SNAG_NEW_OPERATORS(SUFFIX, FLAGS)                                                     \
  void *operator new SUFFIX(size_t n) { return new_block(n, 0, FLAGS, false); }              \
  void *operator new SUFFIX(size_t n, const std::nothrow_t &) noexcept {                     \
    return new_block(n, 0, FLAGS, true);                                                     \
  }                                                                                          \
  void *operator new SUFFIX(size_t n, std::align_val_t a) {                                  \
    return new_block(n, static_cast<size_t>(a), FLAGS, false);                               \
  }                                                                                          \
  void *operator new SUFFIX(size_t n, std::align_val_t a, const std::nothrow_t &) noexcept { \
    return new_block(n, static_cast<size_t>(a), FLAGS, true);                                \
  }                                                                                          \
  void operator delete SUFFIX(void *p) noexcept { delete_block(p, FLAGS); }                  \
  void operator delete SUFFIX(void *p, size_t) noexcept { delete_block(p, FLAGS); }          \
  void operator delete SUFFIX(void *p, const std::nothrow_t &) noexcept {                    \
    delete_block(p, FLAGS);                                                                  \
  }                                                                                          \
  void operator delete SUFFIX(void *p, std::align_val_t) noexcept { delete_block(p, FLAGS); } \
  void operator delete SUFFIX(void *p, size_t, std::align_val_t) noexcept {                  \
    delete_block(p, FLAGS);                                                                  \
  }                                                                                          \
  void operator delete SUFFIX(void *p, std::align_val_t, const std::nothrow_t &) noexcept {  \
    delete_block(p, FLAGS);                                                                  \
  }

#define SNAG_EMPTY
#define SNAG_ARRAY []
SNAG_NEW_OPERATORS(SNAG_EMPTY, kFromNew)
SNAG_NEW_OPERATORS(SNAG_ARRAY, kFromNewArray)
