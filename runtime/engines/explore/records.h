// The engine's JSON-lines records for the CLI (docs/explore.md, "Records in
// explore_out"): the failing schedule with its decisions, the end of an
// unforked run, and the exploration summary.
#pragma once

#include <stdint.h>

#include "core/text_buffer.h"
#include "engines/explore/plan.h"
#include "engines/explore/results.h"

namespace snag::explore {

struct Summary {
  uint64_t schedules = 0;
  double seconds = 0;
  uint64_t failures = 0;
  uint64_t incomplete_steps = 0;  // schedules stopped at the step limit
  uint64_t incomplete_time = 0;   // schedules stopped at the schedule timeout
  uint64_t incomplete_threads = 0;  // a deferred thread's creation failed
  uint64_t per_strategy[kStrategyCount] = {};  // by Strategy
  uint32_t threads = 0;
  bool forked = false;
  const char *note = nullptr;
};

// Opens the file named by the `explore_out` option (nothing happens without it).
void records_open();
// "failure" or "schedule", from the plan and the results of one schedule.
void write_schedule_record(const char *type, const Plan &plan, const ScheduleResults &r);
void write_summary(const Summary &s);
// The count in `s` of schedules stopped without a bug for `why`
// (ScheduleResults::incomplete: "step", "threads", else the schedule timeout).
uint64_t &incomplete_count(Summary &s, const char *why);
// A record built elsewhere (one JSON line, newline included).
void write_record_text(const TextBuffer &b);

}  // namespace snag::explore
