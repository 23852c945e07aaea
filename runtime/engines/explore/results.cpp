#include "engines/explore/results.h"

#include <sys/mman.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "engines/explore/engine_state.h"

namespace snag::explore {

namespace {
ScheduleResults *g_results;
}

void results_map(bool shared) {
  if (g_results) return;
  void *p = mmap(nullptr, sizeof(ScheduleResults), PROT_READ | PROT_WRITE,
                 (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) fatal("explore: cannot map the schedule results");
  g_results = static_cast<ScheduleResults *>(p);
}

ScheduleResults &results() { return *g_results; }

void results_reset() {
  ScheduleResults &r = *g_results;
  // The decisions array is large; only its used part was ever touched.
  r.failed.store(0);
  r.kind[0] = r.message[0] = r.note[0] = r.incomplete[0] = '\0';
  r.steps = r.choices = r.preemptions = 0;
  r.threads = 0;
  r.diverged = false;
  r.diverged_at = 0;
  r.decision_count = 0;
  r.new_coverage_count = 0;
  r.hit_coverage_count = 0;
  if (r.variable_count) fill_bytes(r.variables, 0, sizeof r.variables);
  r.variable_count = 0;
  r.new_stack_count.store(0, std::memory_order_relaxed);
}

void record_decision(Tid chosen, Tid preempted) {
  ScheduleResults &r = *g_results;
  if (r.decision_count < ScheduleResults::kMaxDecisions)
    r.decisions[r.decision_count] = {chosen, preempted};
  ++r.decision_count;
  if (preempted != kNoThread) ++r.preemptions;
}

bool record_failure(const char *kind, const char *message) {
  ScheduleResults &r = *g_results;
  uint32_t expected = 0;
  if (!r.failed.compare_exchange_strong(expected, 1)) return false;
  copy_text(r.kind, sizeof r.kind, kind);
  copy_text(r.message, sizeof r.message, message);
  return true;
}

void record_note(const char *note) {
  if (!g_results->note[0]) copy_text(g_results->note, sizeof g_results->note, note);
}

namespace {

void remember_new_stack(const StackTrace &trace) {
  if (!in_forked_child()) return;  // the fork server learning them
  ScheduleResults &r = *g_results;
  uint32_t slot = r.new_stack_count.fetch_add(1, std::memory_order_relaxed);
  if (slot < ScheduleResults::kMaxNewStacks) r.new_stacks[slot] = trace;
}

}  // namespace

void remember_new_stacks() { depot_observe_additions(remember_new_stack); }

void learn_new_stacks() {
  ScheduleResults &r = *g_results;
  uint32_t count = r.new_stack_count.load(std::memory_order_relaxed);
  if (count > ScheduleResults::kMaxNewStacks) count = ScheduleResults::kMaxNewStacks;
  for (uint32_t i = 0; i < count; ++i) depot_put(r.new_stacks[i]);
}

void count_variable_access(uint64_t key, Tid tid) {
  ScheduleResults &r = *g_results;
  uint32_t mask = ScheduleResults::kProfileCapacity - 1;
  uint32_t slot = static_cast<uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 40) & mask;
  for (uint32_t probe = 0; probe <= mask; ++probe, slot = (slot + 1) & mask) {
    VariableCount &v = r.variables[slot];
    if (v.key == 0) {
      if (r.variable_count * 4 >= ScheduleResults::kProfileCapacity * 3) return;  // full enough
      v.key = key;
      ++r.variable_count;
    }
    if (v.key == key) {
      ++v.accesses;
      v.threads |= uint64_t(1) << (tid % 64);
      return;
    }
  }
}

}  // namespace snag::explore
