#include "engines/explore/corpus.h"

#include "core/internal_alloc.h"
#include "core/platform.h"

namespace snag::explore {

namespace {

struct Entry {
  Decision *decisions;
  uint32_t length;
};

// A base longer than this keeps its first decisions only: a change is made
// within them, and the schedule goes on at random past them.
constexpr uint32_t kMaxKept = 1u << 16;
constexpr uint32_t kMaxEntries = 2048;

Entry g_entries[kMaxEntries];
uint32_t g_count = 0;
uint64_t g_added = 0;

}  // namespace

void corpus_add(const ScheduleResults &r) {
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
  g_entries[slot] = {copy, length};
  ++g_added;
}

void corpus_plan(Plan &p, Random &random) {
  if (g_count == 0 || random.below(5) == 0) return;
  const Entry &e = g_entries[random.below(g_count)];
  p.base = e.decisions;
  p.base_length = e.length;
  p.flip_at = uint32_t(random.below(e.length));
  // Half of the time the base's own decisions after the flip (the change
  // moves one step of an interleaving that got somewhere new), else random
  // ones (a new way on from there). On SCTBench's safestack, keeping the
  // tail 85% of the time found the bug in 3 of 12 seeds within 20,000
  // schedules, half of the time in 5 of 12.
  p.keep_tail = random.below(2) == 0;
}

uint32_t corpus_size() { return g_count; }

}  // namespace snag::explore
