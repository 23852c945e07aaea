// The strategies: given the threads that could run at a choice point, pick
// one. One Chooser serves one schedule, configured from its Plan.
#pragma once

#include <stdint.h>

#include "engines/explore/plan.h"
#include "engines/explore/scheduler.h"

namespace snag::explore {

// splitmix64: small, fast, and the same sequence on every machine.
class Random {
 public:
  void seed(uint64_t s) { state_ = s; }
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }

 private:
  uint64_t state_ = 0;
};

class Chooser {
 public:
  void start(const Plan &plan);
  const Plan &plan() const { return plan_; }

  // A new thread gets its priority (priority-based strategies).
  void thread_created(ControlledThread &t);
  // Before the scheduling decision at step `step` (pct change points).
  void before_point(ControlledThread &me, uint64_t step);
  // `me` makes the `ordinal`-th access (from 1) to plan variable `variable`.
  void variable_access(ControlledThread &me, int variable, uint64_t ordinal);
  // `me` yields (sched_yield, or a sleep, which does not wait under the
  // scheduler): it waits for another thread, so the others go first. Under
  // a priority-based strategy it drops below every other thread; a round
  // robin moves on to the next thread at this point. Otherwise a correct
  // spin-wait whose waiter holds the highest priority would spin until the
  // step limit.
  void yielded(ControlledThread &me);

  // Picks one of `candidates` (ascending thread ids, n >= 2). `me` is the
  // running thread; `me_may_continue` says whether it is among them and the
  // point lets it go on. `choice` counts choice points from 0.
  Tid choose(const Tid *candidates, int n, ControlledThread &me, bool me_may_continue,
             uint64_t choice);

 private:
  Tid highest_priority(const Tid *candidates, int n) const;
  Tid round_robin_after(const Tid *candidates, int n, Tid after) const;
  Tid round_robin_after_role(const Tid *candidates, int n, Tid after) const;
  Tid other_role(const Tid *candidates, int n, Tid except);
  bool is_change_point(uint64_t choice) const;
  Tid cover_choice(const Tid *candidates, int n, uint64_t choice);

  Plan plan_;
  Random random_;
  Tid yielding_ = kNoThread;  // yielded; its next point is the yield's
  bool yield_point_ = false;  // the current point is a yield
};

Chooser &chooser();

}  // namespace snag::explore
