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

void pin_schedule_to_current_cpu() {
  unsigned cpu = 0;
  if (raw_syscall(SYS_getcpu, reinterpret_cast<long>(&cpu), 0, 0) != 0) return;
  // The kernel's cpumask: as many bits as the kernel supports; 1024 CPUs
  // cover every machine this runs on (a larger CPU number is left alone).
  constexpr unsigned kBits = 1024, kWordBits = 8 * sizeof(unsigned long);
  if (cpu >= kBits) return;
  unsigned long mask[kBits / kWordBits] = {};
  mask[cpu / kWordBits] = 1ul << (cpu % kWordBits);
  // Best effort: a container may forbid it, and the schedule runs unpinned.
  raw_syscall(SYS_sched_setaffinity, 0, static_cast<long>(sizeof mask),
              reinterpret_cast<long>(mask));
}

}  // namespace snag::explore
