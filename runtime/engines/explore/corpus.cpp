#include "engines/explore/corpus.h"

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "engines/explore/coverage.h"

namespace snag::explore {

namespace {

// An entry keeps the first of the points it was the first to reach: how
// many schedules reach them since says how rare the ground it found still
// is (its weight, corpus_plan).
constexpr uint32_t kPointsKept = 8;

struct Entry {
  Decision *decisions;
  uint32_t length;
  uint32_t point_count;
  uint16_t points[kPointsKept];
};

// A base longer than this keeps its first decisions only: a change is made
// within them, and the schedule goes on at random past them.
constexpr uint32_t kMaxKept = 1u << 16;
constexpr uint32_t kMaxEntries = 2048;
// The longest hold after a flip, in choices: a few operations of each other
// thread (bench/results/sctbench.txt: safestack/bug1 under the defaults, 18
// of seeds 1-20 with holds of up to 16, 9 without holds).
constexpr uint64_t kMaxHold = 16;

Entry g_entries[kMaxEntries];
uint32_t g_count = 0;
uint64_t g_added = 0;

// The schedules that reached the entry's rarest point so far (at least 1).
uint32_t rarest_hits(const Entry &e) {
  uint32_t rarest = ~uint32_t(0);
  for (uint32_t i = 0; i < e.point_count; ++i) {
    uint32_t hits = coverage_hits(e.points[i]);
    if (hits < rarest) rarest = hits;
  }
  return rarest == 0 || rarest == ~uint32_t(0) ? 1 : rarest;
}

}  // namespace

void corpus_add(const ScheduleResults &r, const Plan &plan) {
  if (plan.strategy != Strategy::kCover) return;
  uint32_t length = r.decision_count;
  if (length > ScheduleResults::kMaxDecisions) length = ScheduleResults::kMaxDecisions;
  if (length > kMaxKept) length = kMaxKept;
  if (length == 0) return;  // nothing to change in it
  auto *copy = static_cast<Decision *>(internal_alloc(sizeof(Decision) * length));
  copy_bytes(copy, r.decisions, sizeof(Decision) * length);
  // A full corpus replaces an entry chosen by the count of additions: old
  // and new bases both stay in it, and the same run replaces the same ones.
  uint32_t slot = g_count < kMaxEntries ? g_count++ : uint32_t(g_added * 0x9e3779b97f4a7c15ull >> 53) % kMaxEntries;
  internal_free(g_entries[slot].decisions);
  Entry &e = g_entries[slot];
  e = {copy, length, 0, {}};
  uint32_t found = r.new_coverage_count < ScheduleResults::kMaxNewCoverage ? r.new_coverage_count
                                                                          : ScheduleResults::kMaxNewCoverage;
  while (e.point_count < found && e.point_count < kPointsKept) e.points[e.point_count] = r.new_coverage[e.point_count], ++e.point_count;
  ++g_added;
}

void corpus_plan(Plan &p, Random &random) {
  if (g_count == 0 || random.below(5) == 0) return;
  // A power schedule (AFLFast, AFL++'s "rare"): an entry is drawn with
  // weight 1 / (the schedules that reached its rarest point). The first
  // schedules' points are reached by nearly every later schedule, and
  // changing them again mostly retraces known ground; a point few
  // schedules reach is the frontier, and an entry stops being favoured as
  // the schedules built on it reach its points too.
  double total = 0;
  for (uint32_t i = 0; i < g_count; ++i) total += 1.0 / rarest_hits(g_entries[i]);
  double pick = total * double(random.next() >> 11) / double(uint64_t(1) << 53);
  uint32_t chosen = g_count - 1;
  for (uint32_t i = 0; i < g_count; ++i) {
    pick -= 1.0 / rarest_hits(g_entries[i]);
    if (pick < 0) {
      chosen = i;
      break;
    }
  }
  const Entry &e = g_entries[chosen];
  p.base = e.decisions;
  p.base_length = e.length;
  p.flip_at = uint32_t(random.below(e.length));
  // Half of the time the base's own decisions after the flip (the change
  // moves one step of an interleaving that got somewhere new), else random
  // ones (a new way on from there). On SCTBench's safestack, keeping the
  // tail 85% of the time found the bug in 3 of 12 seeds within 20,000
  // schedules, half of the time in 5 of 12.
  p.keep_tail = random.below(2) == 0;
  // The thread the flip preempted is held back for 1 to kMaxHold choices: a
  // lock-free operation goes wrong when its thread is preempted between its
  // read and its compare-exchange while the others complete whole
  // operations, and after a bare flip the base's (or a random) choice soon
  // runs the preempted thread again.
  p.hold = 1 + uint32_t(random.below(kMaxHold));
}

uint32_t corpus_size() { return g_count; }

}  // namespace snag::explore
