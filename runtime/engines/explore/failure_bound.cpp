#include "engines/explore/failure_bound.h"

#include <atomic>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "core/options.h"
#include "core/platform.h"

namespace snag::explore {

namespace {

std::atomic<uint64_t> g_own_bound{~uint64_t(0)};
std::atomic<uint64_t> *g_bound = &g_own_bound;

}  // namespace

void failure_bound_open() {
  const char *path = options().text("failure_bound");
  if (!path) return;
  long fd = raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    print_error("explore: cannot open the failure_bound file; this worker runs its whole share");
    return;
  }
  long mapped = raw_syscall(SYS_mmap, 0, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  raw_syscall(SYS_close, fd);
  if (mapped == -1) {
    print_error("explore: cannot map the failure_bound file; this worker runs its whole share");
    return;
  }
  g_bound = reinterpret_cast<std::atomic<uint64_t> *>(mapped);
}

bool after_failure_bound(uint64_t index) { return index > g_bound->load(std::memory_order_acquire); }

bool failure_bound_set() { return g_bound->load(std::memory_order_acquire) != ~uint64_t(0); }

void lower_failure_bound(uint64_t index) {
  uint64_t bound = g_bound->load(std::memory_order_relaxed);
  while (index < bound && !g_bound->compare_exchange_weak(bound, index, std::memory_order_acq_rel)) {
  }
}

}  // namespace snag::explore
