#include "engines/explore/records.h"

#include <fcntl.h>
#include <sys/syscall.h>

#include "core/options.h"
#include "core/platform.h"
#include "core/text_buffer.h"
#include "engines/explore/racy_sites.h"
#include "engines/explore/variables.h"

namespace snag::explore {

namespace {

int g_fd = -1;

void add_points(TextBuffer &b, const Plan &plan) {
  b.add('"');
  switch (plan.access_points) {
    case AccessPoints::kNone: b.add("sync"); break;
    case AccessPoints::kAll: b.add("accesses"); break;
    case AccessPoints::kVariables:
      b.add("vars/");
      for (int i = 0; i < plan.variable_count; ++i) {
        if (i) b.add(',');
        b.add_hex(plan.variables[i]);
      }
      break;
    case AccessPoints::kShared:
      // None seen shared: no access was a point.
      if (shared_variable_count() == 0) {
        b.add("sync");
        break;
      }
      b.add("vars/");
      for (uint32_t i = 0; i < shared_variable_count(); ++i) {
        if (i) b.add(',');
        b.add_hex(shared_variable(i));
      }
      break;
  }
  // The racy accesses were points too (every access already is with
  // "accesses").
  if (plan.access_points != AccessPoints::kAll) racy_sites_append(b);
  b.add('"');
}

void add_decisions(TextBuffer &b, const ScheduleResults &r) {
  b.add('"');
  uint32_t n = r.decision_count < ScheduleResults::kMaxDecisions ? r.decision_count
                                                                  : ScheduleResults::kMaxDecisions;
  for (uint32_t i = 0; i < n; ++i) {
    if (i) b.add(' ');
    b.add_u64(r.decisions[i].chosen);
    if (r.decisions[i].preempted != kNoThread) b.add('p').add_u64(r.decisions[i].preempted);
  }
  b.add('"');
}

}  // namespace

void records_open() {
  const char *path = options().text("explore_out");
  if (!path) return;
  g_fd = static_cast<int>(raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path),
                                      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (g_fd < 0) print_error("explore: cannot open the explore_out file");
}

void write_schedule_record(const char *type, const Plan &plan, const ScheduleResults &r) {
  if (g_fd < 0) return;
  TextBuffer b;
  b.add("{\"type\":").add_json_string(type);
  b.add(",\"schedule\":").add_u64(plan.schedule);
  b.add(",\"strategy\":").add_json_string(strategy_name(plan.strategy));
  b.add(",\"seed\":").add_u64(plan.seed);
  b.add(",\"kind\":").add_json_string(r.kind[0] ? r.kind : "none");
  b.add(",\"message\":").add_json_string(r.message);
  b.add(",\"steps\":").add_u64(r.steps);
  b.add(",\"preemptions\":").add_u64(r.preemptions);
  b.add(",\"threads\":").add_u64(r.threads);
  b.add(",\"diverged\":").add(r.diverged ? "true" : "false");
  if (r.incomplete[0]) b.add(",\"incomplete\":").add_json_string(r.incomplete);
  if (r.diverged) b.add(",\"diverged_at\":").add_u64(r.diverged_at);
  b.add(",\"truncated\":")
      .add(r.decision_count > ScheduleResults::kMaxDecisions ? "true" : "false");
  b.add(",\"points\":");
  add_points(b, plan);
  b.add(",\"decisions\":");
  add_decisions(b, r);
  b.add("}\n");
  b.write_to(g_fd);
}

void write_record_text(const TextBuffer &b) {
  if (g_fd >= 0) b.write_to(g_fd);
}

uint64_t &incomplete_count(Summary &s, const char *why) {
  if (cstr_eq(why, "step")) return s.incomplete_steps;
  if (cstr_eq(why, "threads")) return s.incomplete_threads;
  return s.incomplete_time;
}

void write_summary(const Summary &s) {
  if (g_fd < 0) return;
  TextBuffer b;
  b.add("{\"type\":\"summary\",\"schedules\":").add_u64(s.schedules);
  b.add(",\"seconds\":").add_double(s.seconds);
  b.add(",\"failures\":").add_u64(s.failures);
  b.add(",\"incomplete\":{\"steps\":").add_u64(s.incomplete_steps);
  b.add(",\"time\":").add_u64(s.incomplete_time);
  b.add(",\"threads\":").add_u64(s.incomplete_threads).add('}');
  b.add(",\"per_strategy\":{");
  bool first = true;
  for (int i = 0; i < kStrategyCount; ++i) {
    if (!s.per_strategy[i]) continue;
    if (!first) b.add(',');
    first = false;
    b.add_json_string(strategy_name(static_cast<Strategy>(i))).add(':').add_u64(s.per_strategy[i]);
  }
  b.add("},\"threads\":").add_u64(s.threads);
  b.add(",\"forked\":").add(s.forked ? "true" : "false");
  b.add(",\"notes\":[");
  if (s.note && s.note[0]) b.add_json_string(s.note);
  b.add("]}\n");
  b.write_to(g_fd);
}

}  // namespace snag::explore
