#include "engines/explore/failure_bound.h"

#include <atomic>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "core/options.h"
#include "core/platform.h"

namespace snag::explore {

namespace {

// The file's layout (the CLI's failure_bound_file writes it).
struct SharedBound {
  std::atomic<uint64_t> bound;
  std::atomic<uint64_t> workers;
  std::atomic<uint64_t> ready;
};

std::atomic<uint64_t> g_own_bound{~uint64_t(0)};
std::atomic<uint64_t> *g_bound = &g_own_bound;
SharedBound *g_shared = nullptr;  // null without a file holding the barrier

// How long a worker waits for the others at most: 5 s in 200 us naps.
constexpr long kBarrierNapNs = 200'000;
constexpr int kBarrierNaps = 25'000;

}  // namespace

void failure_bound_open() {
  const char *path = options().text("failure_bound");
  if (!path) return;
  long fd = raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    print_error("explore: cannot open the failure_bound file; this worker runs its whole share");
    return;
  }
  struct stat st;
  const bool barrier = raw_syscall(SYS_fstat, fd, reinterpret_cast<long>(&st)) == 0 &&
                       st.st_size >= static_cast<off_t>(sizeof(SharedBound));
  const long size = barrier ? sizeof(SharedBound) : sizeof(uint64_t);
  long mapped = raw_syscall(SYS_mmap, 0, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  raw_syscall(SYS_close, fd);
  if (mapped == -1) {
    print_error("explore: cannot map the failure_bound file; this worker runs its whole share");
    return;
  }
  g_bound = reinterpret_cast<std::atomic<uint64_t> *>(mapped);
  g_shared = barrier ? reinterpret_cast<SharedBound *>(mapped) : nullptr;
}

void wait_for_all_workers() {
  if (!g_shared) return;
  const uint64_t workers = g_shared->workers.load(std::memory_order_acquire);
  g_shared->ready.fetch_add(1, std::memory_order_acq_rel);
  for (int nap = 0; nap < kBarrierNaps && g_shared->ready.load(std::memory_order_acquire) < workers;
       ++nap) {
    struct timespec pause = {0, kBarrierNapNs};
    raw_syscall(SYS_nanosleep, reinterpret_cast<long>(&pause), 0);
  }
}

bool after_failure_bound(uint64_t index) { return index > g_bound->load(std::memory_order_acquire); }

bool failure_bound_set() { return g_bound->load(std::memory_order_acquire) != ~uint64_t(0); }

void lower_failure_bound(uint64_t index) {
  uint64_t bound = g_bound->load(std::memory_order_relaxed);
  while (index < bound && !g_bound->compare_exchange_weak(bound, index, std::memory_order_acq_rel)) {
  }
}

}  // namespace snag::explore
