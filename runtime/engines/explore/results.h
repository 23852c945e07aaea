// What one schedule leaves behind for the fork server: whether it failed
// and how, its decisions, and (profiling schedules) how often each variable
// was accessed. It lives in a shared mapping made before the first fork, so
// the fork server can read it even after a child crashed or was killed.
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/thread_state.h"

namespace snag::explore {

struct Decision {
  Tid chosen;
  Tid preempted;  // the running thread that could have gone on, or kNoThread
};

struct VariableCount {
  uint64_t key;       // variables.h; 0 = empty slot
  uint64_t accesses;
  uint64_t threads;   // bit (tid % 64) per thread that accessed it
};

struct ScheduleResults {
  static constexpr uint32_t kMaxDecisions = 1u << 21;
  static constexpr uint32_t kProfileCapacity = 1u << 12;
  static constexpr uint32_t kMaxNewStacks = 32;
  static constexpr uint32_t kMaxNewCoverage = 1024;
  static constexpr uint32_t kMaxHitCoverage = 8192;

  std::atomic<uint32_t> failed;
  char kind[32];
  char message[256];
  char note[256];  // something the user should know (a thread left control, ...)
  // The schedule was stopped before the program ended, without a bug: "step"
  // (the step limit, no livelock), "time" (the schedule timeout) or "threads"
  // (a deferred thread's creation failed); "" if not.
  char incomplete[8];
  uint64_t steps;
  uint64_t choices;
  uint64_t preemptions;
  uint32_t threads;
  bool diverged;            // replay: a recorded decision was impossible
  uint64_t diverged_at;
  uint32_t decision_count;  // may exceed kMaxDecisions; the rest is lost
  uint32_t variable_count;
  // Stacks the schedule added to the stack depot, which the fork server adds
  // to its own (results.cpp: remember_new_stacks).
  std::atomic<uint32_t> new_stack_count;
  StackTrace new_stacks[kMaxNewStacks];
  // Coverage points (coverage.h) the schedule reached that the fork server
  // had not seen at its fork; beyond kMaxNewCoverage the count goes on.
  uint32_t new_coverage_count;
  uint16_t new_coverage[kMaxNewCoverage];
  // Every coverage point the schedule reached, each once (beyond
  // kMaxHitCoverage the count goes on): the fork server counts how many
  // schedules reach each point, and the cover strategy bases more schedules
  // on corpus entries whose points few schedules reach (corpus.h).
  uint32_t hit_coverage_count;
  uint16_t hit_coverage[kMaxHitCoverage];
  VariableCount variables[kProfileCapacity];
  Decision decisions[kMaxDecisions];
};

// Maps the region (shared with children when `shared`); called once.
void results_map(bool shared);
ScheduleResults &results();
// Clears it for the next schedule.
void results_reset();

void record_decision(Tid chosen, Tid preempted);
// The first failure of the schedule wins; later ones are ignored. Returns
// false when a failure was already recorded.
bool record_failure(const char *kind, const char *message);
void record_note(const char *note);
void count_variable_access(uint64_t key, Tid tid);

// Called by the fork server before its first fork: from then on, the
// stacks a schedule's child adds to the stack depot (lock acquisitions,
// thread creations) go to its results as well, and the fork server adds
// them to its own depot after the schedule (learn_new_stacks). Later
// children find them in the depot they inherit instead of adding them
// again, which wrote to (and page-faulted on) a random page of the depot's
// hash table and fresh node memory in every schedule.
void remember_new_stacks();
void learn_new_stacks();

}  // namespace snag::explore
