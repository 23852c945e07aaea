// The explore engine's process-wide state that the other parts read.
#pragma once

#include "engines/explore/plan.h"

namespace snag::explore {

// The plan of the schedule this process runs.
const Plan &current_plan();
void set_current_plan(const Plan &plan);
// True in a child of the fork server (the server writes its records); false
// in an unforked run (replay, or a program without threads), which writes
// its own.
bool in_forked_child();

}  // namespace snag::explore
