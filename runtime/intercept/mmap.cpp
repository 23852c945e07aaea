// Mappings. Unmapping memory writes all of it (another thread still reading
// it, unordered, is a race: the read may fault or see another mapping), and
// the range then starts over, like a new mapping: the kernel orders whatever
// was done to those addresses before against their next use.
#include <sys/mman.h>

#include "intercept/real.h"

using namespace snag;

SNAG_REAL(void *, mmap, (void *, size_t, int, int, int, off_t))
SNAG_REAL(void *, mmap64, (void *, size_t, int, int, int, off_t))
SNAG_REAL(int, munmap, (void *, size_t))

namespace {

// Larger unmappings are only forgotten, not checked: checking writes every
// granule's state, which would give shadow memory to a range it never needed.
constexpr size_t kCheckedUnmap = size_t(1) << 20;

void memory_event(EventKind kind, void *addr, size_t size) {
  ThreadState *t = observing_thread();
  if (!t || !addr || size == 0) return;
  Event e = make_event(kind);
  e.addr = reinterpret_cast<uintptr_t>(addr);
  e.value = size;
  emit(t, e);
}

void *mapped(void *p, size_t size) {
  if (p != MAP_FAILED) memory_event(EventKind::kMemoryFresh, p, size);
  return p;
}

}  // namespace

SNAG_INTERCEPTOR void *mmap(void *addr, size_t size, int prot, int flags, int fd, off_t offset) {
  return mapped(real_mmap()(addr, size, prot, flags, fd, offset), size);
}

SNAG_INTERCEPTOR void *mmap64(void *addr, size_t size, int prot, int flags, int fd, off_t offset) {
  return mapped(real_mmap64()(addr, size, prot, flags, fd, offset), size);
}

SNAG_INTERCEPTOR int munmap(void *addr, size_t size) {
  if (size <= kCheckedUnmap) memory_event(EventKind::kFree, addr, size);
  int rc = real_munmap()(addr, size);
  if (rc == 0) memory_event(EventKind::kMemoryFresh, addr, size);
  return rc;
}
