// The lowest failing schedule index of one exploration, shared by its -j
// workers, so that running them side by side finds the same bug as running
// them in turn would.
//
// Worker w of J runs the indices i with i mod J = w, in order. Each one
// stops before an index above the lowest failure any worker has found, and
// lowers the bound when one of its own schedules fails. So every index
// below the reported failure was run (by its worker) and passed: the
// failure the CLI reports, the lowest index among the workers', does not
// depend on which worker ran faster. Without a bound file (one worker, or
// shards on other machines) the bound is this process's own.
//
// The file also holds the number of workers and how many have reached
// their fork point: the workers share the file system, so no schedule
// starts until every worker has done what the program does before its
// fork point (a worker opening a file with O_TRUNC, late, truncated the
// file under another worker's first schedule: a failure that replay did
// not reproduce).
#pragma once

#include <stdint.h>

namespace snag::explore {

// Maps the file named by option "failure_bound": the bound (the CLI writes
// all ones: no failure yet), then the number of workers and the number
// ready (both 0 in a file of only 8 bytes: no start barrier).
void failure_bound_open();

// Counts this worker ready, then waits until every worker is, or until a
// few seconds have passed (a worker whose program ended before its fork
// point never comes).
void wait_for_all_workers();

// True when schedule `index` comes after a failure found by some worker.
bool after_failure_bound(uint64_t index);

// True when some worker has found a failure.
bool failure_bound_set();

// Schedule `index` failed: no worker runs a later index.
void lower_failure_bound(uint64_t index);

}  // namespace snag::explore
