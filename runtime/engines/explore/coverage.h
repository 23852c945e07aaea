// What a schedule covers, for the cover strategy (docs/explore.md, "cover").
//
// A coverage point is a program site together with the state of the
// program's atomic variables when it runs there: after each atomic
// operation (a store included), its site and a running hash of the value
// of every atomic variable the schedule has changed so far; at a
// scheduling point on a plain access, its site and that hash. Two
// schedules that reach the same sites in the same atomic states are alike
// to the cover strategy; one that reaches a new point got somewhere the
// others did not, and its decisions become a base to change (corpus.h).
// Lock-free code is where a schedule's state lives in a few atomic words,
// and where a bug needs a long, precise interleaving that random choices
// alone almost never make (SCTBench's safestack).
//
// One more point per compare-exchange site is not a state but a history: an
// ABA, a compare-exchange that succeeds on the value its thread last saw
// there although other threads changed the location in between. The values
// are the same as without the interference (the state hash cannot tell the
// two apart), and it is the step on which lock-free stacks and lists go
// wrong.
#pragma once

#include <stdint.h>

#include "core/thread_state.h"
#include "engines/explore/results.h"
#include "snag/abi.h"

namespace snag::explore {

constexpr uint32_t kCoverageMapBits = 1u << 16;

// In a schedule's child, after thread `tid`'s atomic operation of `size`
// bytes on `addr` at `site`, with the baton held (no other thread can change
// it meanwhile). `cas_succeeded`: a compare-exchange that stored its value.
void coverage_atomic(uintptr_t addr, uint32_t size, snag_site_t site, Tid tid, bool cas_succeeded);
// In a schedule's child, before thread `tid`'s atomic store of `size` bytes
// on `addr` at `site`, once the scheduler has let the thread go on. A store
// has no hook after it, so it is observed as an atomic operation (above)
// when the engine next hears of any thread (coverage_take_store): only this
// thread runs until then, and the store is done by then.
void coverage_atomic_store(uintptr_t addr, uint32_t size, snag_site_t site, Tid tid);
// In a schedule's child, at every event of the engine: observes the store
// announced last, if any.
void coverage_take_store();
// In a schedule's child, at a scheduling point on a plain access, before it.
void coverage_access(snag_site_t site);

// In the fork server: adds the points a schedule found new to the map and
// counts the schedules that reached each point it reached; returns how many
// points it found new.
uint32_t coverage_learn(const ScheduleResults &r);
// How many schedules learnt so far reached `point` (a bit of the map, as in
// ScheduleResults::new_coverage).
uint32_t coverage_hits(uint16_t point);

// Unit tests: forget the child's record of the current schedule (atomic
// values, points reached in it), as a new child starts.
void coverage_start_schedule_for_test();

}  // namespace snag::explore
