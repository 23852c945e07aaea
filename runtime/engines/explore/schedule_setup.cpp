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

// The kernel's cpumask: as many bits as the kernel supports; 1024 CPUs
// cover every machine this runs on (a larger CPU number is left alone).
constexpr unsigned kCpuBits = 1024, kWordBits = 8 * sizeof(unsigned long);

// Best effort: a container may forbid it, and the process runs unpinned.
bool pin_to(unsigned cpu) {
  if (cpu >= kCpuBits) return false;
  unsigned long mask[kCpuBits / kWordBits] = {};
  mask[cpu / kWordBits] = 1ul << (cpu % kWordBits);
  return raw_syscall(SYS_sched_setaffinity, 0, static_cast<long>(sizeof mask),
                     reinterpret_cast<long>(mask)) == 0;
}

}  // namespace

void pin_schedule_to_current_cpu() {
  unsigned cpu = 0;
  if (raw_syscall(SYS_getcpu, reinterpret_cast<long>(&cpu), 0, 0) != 0) return;
  pin_to(cpu);
}

bool pin_worker_to_own_cpu(uint64_t worker, uint64_t workers) {
  if (workers < 2) return false;
  unsigned long allowed[kCpuBits / kWordBits] = {};
  if (raw_syscall(SYS_sched_getaffinity, 0, static_cast<long>(sizeof allowed),
                  reinterpret_cast<long>(allowed)) <= 0)
    return false;
  unsigned count = 0;
  for (unsigned long word : allowed) count += unsigned(__builtin_popcountl(word));
  if (count < 2) return false;
  // The workers of one exploration share their parent, the snag command;
  // counting from a CPU picked by its process id keeps two explorations
  // with fewer workers than CPUs (ctest -j, say) off each other's CPUs.
  uint64_t wanted = (uint64_t(raw_syscall(SYS_getppid)) + worker) % count;
  for (unsigned cpu = 0; cpu < kCpuBits; ++cpu) {
    if (!(allowed[cpu / kWordBits] & (1ul << (cpu % kWordBits)))) continue;
    if (wanted-- == 0) return pin_to(cpu);
  }
  return false;
}

}  // namespace snag::explore
