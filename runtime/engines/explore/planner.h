// Chooses the plan of every schedule of an exploration (in the fork
// server): the strategy (a fixed one, or the portfolio's rotation), its
// seed, and its parameters, learning from the schedules run so far: how many
// steps and choice points a schedule has (PCT's k, the bounds' ranges), and
// which variables exist, how often and by how many threads they are
// accessed (variable bounding).
#pragma once

#include <stdint.h>

#include "engines/explore/plan.h"
#include "engines/explore/results.h"
#include "engines/explore/strategy.h"
#include "engines/explore/variables.h"

namespace snag::explore {

class Planner {
 public:
  void start(Strategy strategy, uint64_t seed, uint32_t pct_depth, bool preempt_on_access);
  Plan next(uint64_t schedule);
  // What the schedule just run tells about the program.
  void learn(const ScheduleResults &r);

 private:
  struct Variable {
    uint64_t key;
    uint64_t accesses;
    bool shared;
  };
  static constexpr int kMaxVariables = 256;
  static constexpr int kProfileSchedules = 3;

  Strategy pick_strategy();
  void plan_pct(Plan &p);
  void plan_bounded(Plan &p, int bound);
  void plan_variables(Plan &p, const uint64_t *keys, int count);
  void choose_vb_set(Plan &p);
  void choose_pctvb_set(Plan &p);
  // Variables of one kind of key, shared ones first.
  int variables_for(bool instances, int *out, int capacity) const;

  Strategy strategy_ = Strategy::kPortfolio;
  uint32_t pct_depth_ = 3;
  bool preempt_on_access_ = false;
  uint64_t seed_ = 0;
  Random random_;
  uint64_t max_steps_seen_ = 0;
  uint64_t max_choices_seen_ = 0;
  // The same per strategy: a bounded strategy draws its change points over
  // the choice points of its own schedules, which a strategy that keeps more
  // threads enabled at once (pct, random) can outnumber several times.
  uint64_t max_choices_by_strategy_[kStrategyCount] = {};
  Strategy last_strategy_ = Strategy::kPortfolio;  // of the plan learn() hears about
  uint32_t max_threads_seen_ = 0;
  uint64_t planned_ = 0;
  // The portfolio: the rotation's next strategy, and the split between the
  // rotation and cover (planner.cpp, kCoverAfter): each arm's new coverage
  // points per schedule, and the turns cover is owed.
  uint64_t rotation_turn_ = 0;
  double rotation_yield_ = 0;
  double cover_yield_ = 0;
  double cover_credit_ = 0;
  uint64_t per_strategy_[kStrategyCount] = {};

  int variable_count_ = 0;
  Variable variables_[kMaxVariables];

  // vb: the current variable set (indices into the shared-first order) and
  // how many schedules it still gets.
  int vb_size_ = 1;
  int vb_first_ = -1, vb_second_ = 0;
  uint64_t vb_left_ = 0;
  // preempt-bound: the current bound and schedules left at it.
  int preempt_bound_ = 0;
  uint64_t preempt_left_ = 0;
};

}  // namespace snag::explore
