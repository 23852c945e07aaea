#include "engines/guard/recorder.h"

#include "core/internal_alloc.h"
#include "core/platform.h"

namespace snag::guard {

Slot *g_slots;

namespace {
constinit Slot g_no_slot{};  // what the inlined check reads while guard is not running
}  // namespace

void recorder_init() {
  g_slots = static_cast<Slot *>(map_pages(sizeof(Slot) << kRecorderLog2Slots));
  // The table before the mask: a reader that sees the new mask (acquire)
  // sees the new table, never the one empty slot indexed by a large mask.
  __atomic_store_n(&__snag_guard_slots, g_slots, __ATOMIC_RELAXED);
  __atomic_store_n(&__snag_guard_mask, (uint64_t{1} << kRecorderLog2Slots) - 1, __ATOMIC_RELEASE);
}

Slot &lock_slot(uintptr_t granule) {
  Slot &s = slot_of(granule);
  for (unsigned spins = 0;; ++spins) {
    uint64_t key = s.key.load(std::memory_order_relaxed);
    if (!(key & 1) && s.key.compare_exchange_weak(key, key | 1, std::memory_order_acquire)) {
      if (key != granule) {  // fresh, or another granule's: start empty
        s.evicted = key != 0;
        for (int i = 0; i < 2; ++i) {
          __atomic_store_n(&s.site[i], 0, __ATOMIC_RELAXED);
          __atomic_store_n(&s.thread[i], 0, __ATOMIC_RELAXED);
          s.stack[i] = 0;
          s.write[i] = 0;
        }
      }
      return s;
    }
    if (spins > 64) cpu_pause();
  }
}

void unlock_slot(Slot &s, uintptr_t granule) { s.key.store(granule, std::memory_order_release); }

Accessor remote_predecessor(const Slot &s, uint32_t thread) {
  int i = s.thread[0] != 0 && s.thread[0] != thread ? 0 : 1;
  Accessor a;
  if (s.thread[i] == 0 || s.thread[i] == thread) {
    if (s.evicted) a.site = kUnknownSite;
    return a;
  }
  a.site = s.site[i];
  a.thread = s.thread[i];
  a.stack = s.stack[i];
  a.write = s.write[i];
  return a;
}

Accessor local_predecessor(const Slot &s, uint32_t thread) {
  Accessor a;
  int i = s.thread[0] == thread ? 0 : s.thread[1] == thread ? 1 : -1;
  if (i < 0) return a;
  a.site = s.site[i];
  a.thread = s.thread[i];
  a.stack = s.stack[i];
  a.write = s.write[i];
  return a;
}

void record_access(Slot &s, const Accessor &access) {
  if (s.thread[0] != 0 && s.thread[0] != access.thread) {
    s.evicted = 0;  // a second thread: the remote predecessor is known again
    __atomic_store_n(&s.site[1], s.site[0], __ATOMIC_RELAXED);
    __atomic_store_n(&s.thread[1], s.thread[0], __ATOMIC_RELAXED);
    s.stack[1] = s.stack[0];
    s.write[1] = s.write[0];
  }
  __atomic_store_n(&s.site[0], access.site, __ATOMIC_RELAXED);
  __atomic_store_n(&s.thread[0], access.thread, __ATOMIC_RELAXED);
  s.stack[0] = access.stack;
  s.write[0] = access.write;
}

}  // namespace snag::guard

using snag::guard::Slot;
extern "C" {
__attribute__((visibility("default"))) Slot *__snag_guard_slots = &snag::guard::g_no_slot;
__attribute__((visibility("default"))) uint64_t __snag_guard_mask = 0;
__attribute__((visibility("default"))) __thread uint32_t __snag_guard_tid
    __attribute__((tls_model("initial-exec")));
}
