// What makes each forked schedule cheap to start (docs/explore.md, "Speed").
#pragma once

#include <stdint.h>

namespace snag::explore {

// Once, before the first schedule (fork server and replay alike, so both
// lay out memory the same way): creates and joins one thread of its own
// through the real pthread_create, so glibc's one-time thread set-up (its
// cancellation signal handler, the stack cache, malloc's thread state) is
// done here instead of again in every forked schedule.
void warm_up_thread_library();

// Called first thing in a forked schedule (still single-threaded, so every
// thread the program creates inherits it): binds the process to the CPU it
// is on now. Only one of its threads runs at a time, so nothing is lost, and
// every hand-over of the baton then stays on that CPU: the woken thread does
// not wait for a cross-CPU wake-up, and the child's copy-on-write faults do
// not interrupt other CPUs to flush their TLBs. The fork server itself stays
// free to move between schedules.
void pin_schedule_to_current_cpu();

// With several workers (-j, shards): binds this worker's fork server, and
// so every schedule it forks, to a CPU of its own among those the process
// may use (the workers of one exploration on consecutive ones); returns
// whether it did.
// Pinning each schedule to wherever its fork server happened to run put two
// workers' schedules on one CPU whenever the kernel had moved a server, and
// the other CPU sat idle for that schedule (docs/explore.md, "Speed").
bool pin_worker_to_own_cpu(uint64_t worker, uint64_t workers);

}  // namespace snag::explore
