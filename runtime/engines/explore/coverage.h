// What a schedule covers, for the cover strategy (docs/explore.md, "cover").
//
// A coverage point is a program site together with the state of the
// program's atomic variables when it runs there: after each atomic
// operation, its site and a running hash of the value of every atomic
// variable the schedule has changed so far; at a scheduling point on a
// plain access, its site and that hash. Two
// schedules that reach the same sites in the same atomic states are alike
// to the cover strategy; one that reaches a new point got somewhere the
// others did not, and its decisions become a base to change (corpus.h).
// Lock-free code is where a schedule's state lives in a few atomic words,
// and where a bug needs a long, precise interleaving that random choices
// alone almost never make (SCTBench's safestack).
#pragma once

#include <stdint.h>

#include "engines/explore/results.h"
#include "snag/abi.h"

namespace snag::explore {

constexpr uint32_t kCoverageMapBits = 1u << 16;

// In a schedule's child, after an atomic operation of `size` bytes on `addr`
// at `site`, with the baton held (no other thread can change it meanwhile).
void coverage_atomic(uintptr_t addr, uint32_t size, snag_site_t site);
// In a schedule's child, at a scheduling point on a plain access, before it.
void coverage_access(snag_site_t site);

// In the fork server: adds the points a schedule found new to the map;
// returns how many it found.
uint32_t coverage_learn(const ScheduleResults &r);

}  // namespace snag::explore
