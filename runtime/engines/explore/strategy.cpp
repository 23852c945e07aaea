#include "engines/explore/strategy.h"

#include "core/debug_assert.h"
#include "core/platform.h"
#include "engines/explore/replay_log.h"

namespace snag::explore {

namespace {

struct StrategyName {
  Strategy strategy;
  const char *name;
};

constexpr StrategyName kNames[] = {
    {Strategy::kRandom, "random"},       {Strategy::kPct, "pct"},
    {Strategy::kDelayBound, "delay-bound"}, {Strategy::kPreemptBound, "preempt-bound"},
    {Strategy::kVb, "vb"},               {Strategy::kPctVb, "pctvb"},
    {Strategy::kCover, "cover"},         {Strategy::kReplay, "replay"},
    {Strategy::kPortfolio, "portfolio"},
};

bool priority_based(Strategy s) {
  return s == Strategy::kPct || s == Strategy::kPctVb || s == Strategy::kVb;
}

}  // namespace

const char *strategy_name(Strategy s) {
  for (const StrategyName &n : kNames)
    if (n.strategy == s) return n.name;
  return "?";
}

bool parse_strategy(const char *name, Strategy *out) {
  for (const StrategyName &n : kNames) {
    if (cstr_eq(n.name, name)) {
      *out = n.strategy;
      return true;
    }
  }
  return false;
}

void Chooser::start(const Plan &plan) {
  SNAG_DEBUG_ASSERT(plan.change_count >= 0 && plan.change_count <= kMaxChangePoints,
                    "a plan has at most kMaxChangePoints change points");
  SNAG_DEBUG_ASSERT(plan.variable_count >= 0 && plan.variable_count <= kMaxPlanVariables,
                    "a plan has at most kMaxPlanVariables variables");
  if (plan.access_points == AccessPoints::kVariables)
    for (int i = 0; i < plan.change_count; ++i)
      SNAG_DEBUG_ASSERT(plan.change_variable[i] >= 0 && plan.change_variable[i] < plan.variable_count,
                        "a change point names one of the plan's variables");
  plan_ = plan;
  random_.seed(plan.seed);
  yielding_ = kNoThread;
  yield_point_ = false;
}

void Chooser::thread_created(ControlledThread &t) {
  if (!priority_based(plan_.strategy)) return;
  // Initial priorities are all above the change-point priorities
  // (1..change_count); distinct, random, and in creation order otherwise.
  t.priority = (uint64_t(kMaxChangePoints + 1) << 32) + (random_.next() >> 33) * 1024 + t.tid;
}

void Chooser::before_point(ControlledThread &me, uint64_t step) {
  yield_point_ = yielding_ == me.tid;
  yielding_ = kNoThread;
  if (plan_.strategy != Strategy::kPct) return;
  for (int i = 0; i < plan_.change_count; ++i)
    if (plan_.change_step[i] == step) me.priority = uint64_t(plan_.change_count - i);
}

void Chooser::variable_access(ControlledThread &me, int variable, uint64_t ordinal) {
  if (plan_.strategy != Strategy::kPctVb && plan_.strategy != Strategy::kVb) return;
  for (int i = 0; i < plan_.change_count; ++i)
    if (plan_.change_variable[i] == variable && plan_.change_step[i] == ordinal)
      me.priority = uint64_t(plan_.change_count - i);
}

void Chooser::yielded(ControlledThread &me) {
  yielding_ = me.tid;
  if (!priority_based(plan_.strategy)) return;
  // Just below the lowest other thread, which keeps the others' order (two
  // threads that yield in turn alternate). At 0 the others move up instead.
  Scheduler &s = scheduler();
  uint64_t lowest = ~uint64_t(0);
  for (Tid tid = 0; tid < s.thread_limit(); ++tid) {
    ControlledThread *t = s.thread(tid);
    if (t && t != &me && t->status != Status::kFinished && t->priority < lowest) lowest = t->priority;
  }
  if (lowest == ~uint64_t(0) || me.priority < lowest) return;  // already the lowest
  if (lowest == 0) {
    for (Tid tid = 0; tid < s.thread_limit(); ++tid) {
      ControlledThread *t = s.thread(tid);
      if (t && t != &me) ++t->priority;
    }
    lowest = 1;
  }
  me.priority = lowest - 1;
}

Tid Chooser::highest_priority(const Tid *candidates, int n) const {
  Tid best = candidates[0];
  uint64_t best_priority = 0;
  for (int i = 0; i < n; ++i) {
    ControlledThread *t = scheduler().thread(candidates[i]);
    if (t->priority > best_priority) best_priority = t->priority, best = candidates[i];
  }
  return best;
}

Tid Chooser::round_robin_after(const Tid *candidates, int n, Tid after) const {
  for (int i = 0; i < n; ++i)
    if (candidates[i] > after) return candidates[i];
  return candidates[0];
}

// The next candidate in round-robin order after `after` of another role
// than it (ControlledThread::kind), or the plain next one when all share
// it: a delay that skips one of 99 interchangeable workers would only hand
// the turn to the next of them.
Tid Chooser::round_robin_after_role(const Tid *candidates, int n, Tid after) const {
  Scheduler &s = scheduler();
  StackId role = s.thread(after)->kind;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < n; ++i)
      if ((pass == 1 || candidates[i] > after) && s.thread(candidates[i])->kind != role)
        return candidates[i];
  return round_robin_after(candidates, n, after);
}

// One of `candidates` other than `except`, the roles (ControlledThread::kind)
// weighed alike: a role drawn uniformly, then one of its threads. A bug
// usually needs a thread of another role to run at the right moment, and
// among 99 interchangeable workers and one reader a uniform draw picks the
// reader once in 99 preemptions, this one about every other time.
Tid Chooser::other_role(const Tid *candidates, int n, Tid except) {
  Scheduler &s = scheduler();
  auto kind = [&](int i) { return s.thread(candidates[i])->kind; };
  // The first candidate of each role stands for it (n is small, and this
  // runs only at a forced preemption).
  auto first_of_role = [&](int i) {
    for (int j = 0; j < i; ++j)
      if (candidates[j] != except && kind(j) == kind(i)) return false;
    return true;
  };
  int roles = 0;
  for (int i = 0; i < n; ++i) roles += candidates[i] != except && first_of_role(i);
  uint64_t role = random_.below(uint64_t(roles));
  int chosen = 0;
  for (int i = 0; i < n; ++i)
    if (candidates[i] != except && first_of_role(i) && role-- == 0) chosen = i;
  int members = 0;
  for (int i = 0; i < n; ++i) members += candidates[i] != except && kind(i) == kind(chosen);
  uint64_t member = random_.below(uint64_t(members));
  for (int i = 0; i < n; ++i)
    if (candidates[i] != except && kind(i) == kind(chosen) && member-- == 0) return candidates[i];
  return candidates[chosen];
}

bool Chooser::is_change_point(uint64_t choice) const {
  for (int i = 0; i < plan_.change_count; ++i)
    if (plan_.change_step[i] == choice) return true;
  return false;
}

// The base's decision up to the flip (where it still applies: the base may
// have taken another way there already), another thread than the base's at
// the flip, and after it the base's decisions again or random ones, except
// that during the hold the thread the flip preempted does not run.
Tid Chooser::cover_choice(const Tid *candidates, int n, uint64_t choice) {
  auto listed = [&](Tid tid) {
    for (int i = 0; i < n; ++i)
      if (candidates[i] == tid) return true;
    return false;
  };
  if (plan_.base && plan_.flip_at < plan_.base_length && choice > plan_.flip_at &&
      choice - plan_.flip_at <= plan_.hold) {
    Tid held = plan_.base[plan_.flip_at].chosen;
    if (n > 1 && listed(held)) {
      Tid recorded = choice < plan_.base_length ? plan_.base[choice].chosen : held;
      if (plan_.keep_tail && recorded != held && listed(recorded)) return recorded;
      uint64_t other = random_.below(uint64_t(n - 1));
      for (int i = 0; i < n; ++i)
        if (candidates[i] != held && other-- == 0) return candidates[i];
    }
  }
  if (plan_.base && choice < plan_.base_length) {
    Tid recorded = plan_.base[choice].chosen;
    if (choice == plan_.flip_at && listed(recorded)) {
      uint64_t other = random_.below(uint64_t(n - 1));
      for (int i = 0; i < n; ++i)
        if (candidates[i] != recorded && other-- == 0) return candidates[i];
    }
    if ((choice < plan_.flip_at || plan_.keep_tail) && listed(recorded)) return recorded;
  }
  return candidates[random_.below(n)];
}

Tid Chooser::choose(const Tid *candidates, int n, ControlledThread &me, bool me_may_continue,
                    uint64_t choice) {
  // A thread that yields does not go on in a round robin.
  if (yield_point_) me_may_continue = false;
  switch (plan_.strategy) {
    case Strategy::kRandom:
      return candidates[random_.below(n)];
    case Strategy::kPct:
    case Strategy::kPctVb:
    case Strategy::kVb:
      return highest_priority(candidates, n);
    case Strategy::kDelayBound: {
      // Non-preemptive round robin; a delay skips the thread it would pick.
      Tid pick = me_may_continue ? me.tid : round_robin_after(candidates, n, me.tid);
      if (is_change_point(choice)) pick = round_robin_after_role(candidates, n, pick);
      return pick;
    }
    case Strategy::kPreemptBound: {
      Tid pick = me_may_continue ? me.tid : round_robin_after(candidates, n, me.tid);
      // Force any thread but the default one.
      if (is_change_point(choice)) return other_role(candidates, n, pick);
      return pick;
    }
    case Strategy::kCover:
      return cover_choice(candidates, n, choice);
    case Strategy::kReplay:
      return replay_log().choose(candidates, n, me, me_may_continue, choice);
    case Strategy::kPortfolio:
      break;
  }
  return candidates[0];
}

Chooser &chooser() {
  static Chooser instance;
  return instance;
}

}  // namespace snag::explore
