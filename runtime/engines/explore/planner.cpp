#include "engines/explore/planner.h"

#include "engines/explore/corpus.h"

namespace snag::explore {

namespace {

// The portfolio's rotation. PCT and its variable-bounded sibling come first:
// they find most bugs soonest.
constexpr Strategy kPortfolio[] = {Strategy::kPct,          Strategy::kPctVb,
                                   Strategy::kRandom,       Strategy::kVb,
                                   Strategy::kPreemptBound, Strategy::kDelayBound};
// After this many of a worker's schedules cover takes part: most bugs fall
// to the rotation within a few hundred schedules, and what is left needs
// long, precise interleavings, which cover reaches by building on its corpus
// (bench/results/sctbench.txt: safestack).
constexpr uint64_t kCoverAfter = 1000;
// From then on cover's share of the schedules follows its yield against the
// rotation's (new coverage points per schedule, each a moving average over
// about the arm's last kYieldWindow schedules), within [1/8, 7/8] so that
// each arm's estimate stays current; equal yields (none at all, on a program
// without atomics) give every other schedule, as before.
constexpr double kYieldWindow = 32;
constexpr double kMinShare = 1.0 / 8;

uint64_t mix(uint64_t a, uint64_t b) {
  Random r;
  r.seed(a ^ (b * 0x9e3779b97f4a7c15ull));
  return r.next();
}

// Natural logarithm, accurate enough for a schedule count (the runtime does
// not link libm).
double ln(double x) {
  int exponent = 0;
  while (x >= 2) x /= 2, ++exponent;
  while (x < 1) x *= 2, --exponent;
  // ln(x) for x in [1, 2): a short series in (x-1)/(x+1).
  double y = (x - 1) / (x + 1), y2 = y * y;
  double series = 2 * y * (1 + y2 / 3 + y2 * y2 / 5 + y2 * y2 * y2 / 7);
  return exponent * 0.6931471805599453 + series;
}

// Thread bounding (paper 004, Lemma 4.1): enough random priority
// permutations of n thread fragments to see every relative order of every
// t of them with probability 1 - epsilon: N >= t! * (t ln n + ln 1/epsilon).
uint64_t thread_bound_schedules(uint32_t t, uint32_t n) {
  double factorial = 1;
  for (uint32_t i = 2; i <= t; ++i) factorial *= i;
  const double epsilon = 0.1;
  double count = factorial * (t * ln(n < 2 ? 2 : n) + ln(1 / epsilon));
  return static_cast<uint64_t>(count) + 1;
}

}  // namespace

void Planner::start(Strategy strategy, uint64_t seed, uint32_t pct_depth, bool preempt_on_access) {
  strategy_ = strategy;
  seed_ = seed;
  pct_depth_ = pct_depth < 1 ? 1 : pct_depth > kMaxChangePoints + 1 ? kMaxChangePoints + 1
                                                                    : pct_depth;
  preempt_on_access_ = preempt_on_access;
}

Strategy Planner::pick_strategy() {
  Strategy s = strategy_;
  if (s == Strategy::kPortfolio) {
    constexpr uint64_t n = sizeof kPortfolio / sizeof *kPortfolio;
    // The rotation goes on after the 1,000th schedule where the former
    // every-other rule had it (schedule k's strategy k/2): with equal yields
    // the plans are the same as before, and so is every bug the rotation
    // finds there.
    if (planned_ == kCoverAfter) rotation_turn_ = kCoverAfter / 2;
    s = kPortfolio[rotation_turn_ % n];
    if (planned_ >= kCoverAfter) {
      // Cover's share accrues as credit, and a whole turn of it is a cover
      // schedule: the shares hold exactly, without drawing (the same
      // history gives the same choices).
      double sum = cover_yield_ + rotation_yield_;
      double share = sum > 0 ? cover_yield_ / sum : 0.5;
      share = share < kMinShare ? kMinShare : share > 1 - kMinShare ? 1 - kMinShare : share;
      cover_credit_ += share;
      if (cover_credit_ >= 1) {
        cover_credit_ -= 1;
        return Strategy::kCover;
      }
    }
    ++rotation_turn_;
  }
  // Variable bounding needs the variables a profiling schedule found.
  if ((s == Strategy::kVb || s == Strategy::kPctVb) && variable_count_ == 0) s = Strategy::kPct;
  return s;
}

Plan Planner::next(uint64_t schedule) {
  Plan p;
  p.schedule = schedule;
  p.seed = mix(seed_, schedule);
  random_.seed(p.seed ^ 0x5bd1e995u);
  p.strategy = pick_strategy();
  p.profile = planned_ < kProfileSchedules;
  p.access_points = preempt_on_access_ ? AccessPoints::kAll : AccessPoints::kNone;
  uint64_t nth = per_strategy_[int(p.strategy)]++;
  last_strategy_ = p.strategy;
  switch (p.strategy) {
    case Strategy::kPct:
      plan_pct(p);
      break;
    case Strategy::kDelayBound:
      plan_bounded(p, 1 + int(nth % 3));
      break;
    case Strategy::kPreemptBound:
      // Iterative: one schedule at bound 0 (it is deterministic), then
      // 20 * 2^b random placements of b preemptions, for b = 1, 2, ... 5.
      if (preempt_left_ == 0) {
        if (nth > 0 && preempt_bound_ < 5) ++preempt_bound_;
        preempt_left_ = preempt_bound_ == 0 ? 1 : 20ull << preempt_bound_;
      }
      --preempt_left_;
      plan_bounded(p, preempt_bound_);
      break;
    case Strategy::kVb:
      choose_vb_set(p);
      break;
    case Strategy::kPctVb:
      choose_pctvb_set(p);
      break;
    case Strategy::kCover:
      // A race between plain accesses shows only when a thread can be
      // preempted between them: accesses to shared variables are points.
      if (!preempt_on_access_) p.access_points = AccessPoints::kShared;
      corpus_plan(p, random_);
      break;
    default:
      break;
  }
  ++planned_;
  return p;
}

void Planner::plan_pct(Plan &p) {
  uint64_t k = max_steps_seen_ ? max_steps_seen_ : 100;
  p.change_count = int(pct_depth_) - 1;
  for (int i = 0; i < p.change_count; ++i) p.change_step[i] = 1 + random_.below(k);
}

void Planner::plan_bounded(Plan &p, int bound) {
  uint64_t k = max_choices_by_strategy_[int(p.strategy)];
  if (k == 0) k = max_choices_seen_ ? max_choices_seen_ : 50;
  p.change_count = bound > kMaxChangePoints ? kMaxChangePoints : bound;
  for (int i = 0; i < p.change_count; ++i) p.change_step[i] = random_.below(k);
}

// Change points at accesses to the plan's variables: (variable, ordinal)
// pairs drawn uniformly over all accesses to them.
void Planner::plan_variables(Plan &p, const uint64_t *keys, int count) {
  uint64_t accesses[kMaxPlanVariables] = {};
  uint64_t total = 0;
  p.access_points = AccessPoints::kVariables;
  p.variable_count = count;
  for (int i = 0; i < count; ++i) {
    p.variables[i] = keys[i];
    for (int v = 0; v < variable_count_; ++v)
      if (variables_[v].key == keys[i]) accesses[i] = variables_[v].accesses;
    if (accesses[i] == 0) accesses[i] = 1;
    total += accesses[i];
  }
  for (int c = 0; c < p.change_count; ++c) {
    uint64_t pick = random_.below(total);
    int v = 0;
    while (pick >= accesses[v]) pick -= accesses[v++];
    p.change_variable[c] = v;
    p.change_step[c] = pick + 1;
  }
}

int Planner::variables_for(bool instances, int *out, int capacity) const {
  // Shared variables first; within each group the least accessed first:
  // "corner" variables get the least testing from plain PCT (paper 004, §3).
  int n = 0;
  for (int pass = 0; pass < 2; ++pass) {
    int group_start = n;
    for (int v = 0; v < variable_count_; ++v) {
      VariableKind kind = variable_kind(variables_[v].key);
      bool wanted = kind == VariableKind::kGlobal ||
                    kind == (instances ? VariableKind::kHeapInstance : VariableKind::kHeapSite);
      if (!wanted || variables_[v].shared != (pass == 0)) continue;
      // Insertion into the sorted group, keeping at most `capacity`.
      int at = n;
      while (at > group_start && variables_[out[at - 1]].accesses > variables_[v].accesses) --at;
      if (at >= capacity) continue;
      int end = n < capacity ? n : capacity - 1;
      for (int i = end; i > at; --i) out[i] = out[i - 1];
      out[at] = v;
      if (n < capacity) ++n;
    }
  }
  return n;
}

void Planner::choose_vb_set(Plan &p) {
  // Variable sets of growing size (1, then 2), shared variables first; each
  // set gets the thread-bounding number of random priority permutations.
  constexpr int kConsidered = 16;
  int order[kConsidered];
  int n = variables_for(true, order, kConsidered);
  if (n == 0) return plan_pct(p);
  if (vb_left_ == 0) {
    if (vb_size_ == 1 && ++vb_first_ >= n) vb_size_ = 2, vb_first_ = 0, vb_second_ = 0;
    if (vb_size_ == 2 && ++vb_second_ >= n) {
      if (++vb_first_ >= n - 1) vb_size_ = 1, vb_first_ = 0;
      vb_second_ = vb_first_ + 1;
    }
    if (vb_size_ == 2 && n < 2) vb_size_ = 1, vb_first_ = 0;
    uint32_t threads = max_threads_seen_ ? max_threads_seen_ : 2;
    uint32_t t = threads < 3 ? threads : 3;
    // A preempted thread counts as two fragments (context bound 2).
    vb_left_ = thread_bound_schedules(t, threads * 3);
  }
  --vb_left_;
  uint64_t keys[2] = {variables_[order[vb_first_ % n]].key, 0};
  int count = 1;
  if (vb_size_ == 2) keys[count++] = variables_[order[vb_second_ % n]].key;
  p.change_count = 1 + int(vb_left_ % 2);
  plan_variables(p, keys, count);
}

void Planner::choose_pctvb_set(Plan &p) {
  constexpr int kConsidered = 64;
  int order[kConsidered];
  int n = variables_for(false, order, kConsidered);
  if (n == 0) return plan_pct(p);
  int shared = 0;
  while (shared < n && variables_[order[shared]].shared) ++shared;
  int pool = shared ? shared : n;
  uint64_t keys[2];
  int count = pool >= 2 && random_.below(2) ? 2 : 1;
  keys[0] = variables_[order[random_.below(pool)]].key;
  if (count == 2) {
    keys[1] = variables_[order[random_.below(pool)]].key;
    if (keys[1] == keys[0]) count = 1;
  }
  p.change_count = int(pct_depth_) - 1;
  if (p.change_count == 0) p.change_count = 1;
  plan_variables(p, keys, count);
}

void Planner::learn(const ScheduleResults &r) {
  if (strategy_ == Strategy::kPortfolio && planned_ > kCoverAfter) {
    // Both estimates start level when cover joins (at the rotation's).
    double &yield = last_strategy_ == Strategy::kCover ? cover_yield_ : rotation_yield_;
    yield += (double(r.new_coverage_count) - yield) / kYieldWindow;
  } else {
    rotation_yield_ += (double(r.new_coverage_count) - rotation_yield_) / kYieldWindow;
    cover_yield_ = rotation_yield_;
  }
  if (r.steps > max_steps_seen_) max_steps_seen_ = r.steps;
  if (r.choices > max_choices_seen_) max_choices_seen_ = r.choices;
  uint64_t &own = max_choices_by_strategy_[int(last_strategy_)];
  if (r.choices > own) own = r.choices;
  if (r.threads > max_threads_seen_) max_threads_seen_ = r.threads;
  // Profiling schedules count every variable; the others their plan's.
  if (r.variable_count == 0) return;
  for (uint32_t slot = 0; slot < ScheduleResults::kProfileCapacity; ++slot) {
    const VariableCount &c = r.variables[slot];
    if (c.key == 0) continue;
    Variable *v = nullptr;
    for (int i = 0; i < variable_count_ && !v; ++i)
      if (variables_[i].key == c.key) v = &variables_[i];
    if (!v) {
      if (variable_count_ == kMaxVariables) continue;
      v = &variables_[variable_count_++];
      *v = {c.key, 0, false};
    }
    if (c.accesses > v->accesses) v->accesses = c.accesses;
    v->shared |= __builtin_popcountll(c.threads) >= 2;
    if (v->shared) note_shared_variable(v->key);
  }
}

}  // namespace snag::explore
