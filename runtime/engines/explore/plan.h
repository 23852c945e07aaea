// What one schedule does: the strategy, its seed and its parameters. The fork
// server fills a Plan before forking each schedule; the child inherits it.
#pragma once

#include <stdint.h>

#include "engines/explore/results.h"

namespace snag::explore {

enum class Strategy : uint8_t {
  kRandom,
  kPct,
  kDelayBound,
  kPreemptBound,
  kVb,
  kPctVb,
  kCover,  // coverage-guided: a schedule that covered something new, changed at one choice
  kReplay,
  kPortfolio,  // rotates among the others; never the strategy of one schedule
};
constexpr int kStrategyCount = int(Strategy::kPortfolio) + 1;

const char *strategy_name(Strategy s);
// False when `name` is no strategy (the CLI validates first; this is a guard).
bool parse_strategy(const char *name, Strategy *out);

// Which memory accesses are scheduling points.
enum class AccessPoints : uint8_t {
  kNone,       // synchronization operations only
  kAll,        // every instrumented access (--preempt-on-access)
  kVariables,  // accesses to the plan's variables (vb, pctvb)
  kShared,     // accesses to the variables noted shared (variables.h; cover, and replays)
};

constexpr int kMaxPlanVariables = 4;
constexpr int kMaxChangePoints = 8;

struct Plan {
  Strategy strategy = Strategy::kRandom;
  uint64_t seed = 0;
  uint64_t schedule = 0;  // index among all schedules of the exploration
  AccessPoints access_points = AccessPoints::kNone;

  // Variables (variables.h keys) whose accesses are scheduling points.
  int variable_count = 0;
  uint64_t variables[kMaxPlanVariables] = {};

  // pct: steps at which the running thread drops to priority i+1 (of
  // `change_count`). pctvb / vb: the change points are the
  // `change_access[i]`-th access to `variables[change_variable[i]]`.
  // delay-bound: choice points at which the default thread is skipped.
  // preempt-bound: choice points at which another thread is forced to run.
  int change_count = 0;
  uint64_t change_step[kMaxChangePoints] = {};
  int change_variable[kMaxChangePoints] = {};

  // Record per-variable access counts for later vb / pctvb plans.
  bool profile = false;

  // cover: the decisions of an earlier schedule (in the fork server's
  // corpus, which the child inherits) to follow up to choice `flip_at`,
  // where another thread than the recorded one runs; after it, the rest of
  // them where they still apply (`keep_tail`), else random choices. No
  // base: random choices throughout.
  const Decision *base = nullptr;
  uint32_t base_length = 0;
  uint32_t flip_at = 0;
  bool keep_tail = false;
  // cover: for this many choices after the flip, the thread the base ran at
  // the flip does not run while another can (0: no hold).
  uint32_t hold = 0;
};

}  // namespace snag::explore
