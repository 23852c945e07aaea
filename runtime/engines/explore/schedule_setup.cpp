#include "engines/explore/schedule_setup.h"

#include <pthread.h>
#include <sys/syscall.h>

#include "core/platform.h"
#include "intercept/real.h"

SNAG_REAL(int, pthread_create, (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))
SNAG_REAL(int, pthread_join, (pthread_t, void **))

namespace snag::explore {

namespace {

void *do_nothing(void *) { return nullptr; }

}  // namespace

void warm_up_thread_library() {
  pthread_t thread;
  if (real_pthread_create()(&thread, nullptr, do_nothing, nullptr) == 0)
    real_pthread_join()(thread, nullptr);
}

namespace {

// Best effort: a container may forbid it, and the process runs unpinned.
// A CPU numbered beyond CpuSet's bits is left alone.
bool pin_to(unsigned cpu) {
  if (cpu >= CpuSet::kBits) return false;
  CpuSet only;
  only.add(cpu);
  return set_allowed_cpus(only);
}

}  // namespace

void pin_schedule_to_current_cpu() {
  unsigned cpu = 0;
  if (raw_syscall(SYS_getcpu, reinterpret_cast<long>(&cpu), 0, 0) != 0) return;
  pin_to(cpu);
}

bool pin_worker_to_own_cpu(uint64_t worker, uint64_t workers) {
  if (workers < 2) return false;
  CpuSet allowed;
  if (!allowed_cpus(allowed)) return false;
  unsigned count = allowed.count();
  if (count < 2) return false;
  // The workers of one exploration share their parent, the snag command;
  // counting from a CPU picked by its process id keeps two explorations
  // with fewer workers than CPUs (ctest -j, say) off each other's CPUs.
  uint64_t wanted = (uint64_t(raw_syscall(SYS_getppid)) + worker) % count;
  for (unsigned cpu = 0; cpu < CpuSet::kBits; ++cpu)
    if (allowed.has(cpu) && wanted-- == 0) return pin_to(cpu);
  return false;
}

}  // namespace snag::explore
