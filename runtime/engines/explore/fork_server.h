// Exploration by forking: when the program first creates a thread, its
// process becomes a fork server that runs every schedule in a child forked
// from that moment, so the program's start-up runs once. The server plans
// each schedule, waits for the child (killing it after the schedule
// timeout), learns from its results, and stops at the first failure, after
// the schedule budget, or at the time limit.
#pragma once

#include "engines/explore/plan.h"

namespace snag::explore {

// Returns in each child, with the plan of its schedule. In the server it
// never returns: after the last schedule it writes the summary and exits.
Plan fork_schedules();

}  // namespace snag::explore
