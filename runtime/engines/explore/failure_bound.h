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
#pragma once

#include <stdint.h>

namespace snag::explore {

// Maps the 8-byte file named by option "failure_bound" (the CLI creates it
// holding all ones: no failure yet).
void failure_bound_open();

// True when schedule `index` comes after a failure found by some worker.
bool after_failure_bound(uint64_t index);

// True when some worker has found a failure.
bool failure_bound_set();

// Schedule `index` failed: no worker runs a later index.
void lower_failure_bound(uint64_t index);

}  // namespace snag::explore
