#include "engines/explore/failures.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/fatal_signals.h"
#include "core/findings.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/text_buffer.h"
#include "engines/explore/engine_state.h"
#include "engines/explore/io_waits.h"
#include "engines/explore/records.h"
#include "engines/explore/results.h"
#include "engines/explore/sync_objects.h"

namespace snag::explore {

namespace {

// A forked child that failed exits with this status; the fork server then
// reads how from the shared results.
constexpr int kFailedChildStatus = 97;
// A forked child whose schedule was stopped before the end, without a bug.
constexpr int kIncompleteChildStatus = 98;


// An unforked run writes its own failure record; a forked child's is
// written by the fork server.
void record_failed_schedule() {
  scheduler().save_counters(results());
  if (!in_forked_child()) write_schedule_record("failure", current_plan(), results());
}

[[noreturn]] void end_failed_schedule() {
  record_failed_schedule();
  raw_syscall(SYS_exit_group,
              in_forked_child() ? kFailedChildStatus : long(options().number("exitcode")));
  __builtin_unreachable();
}

void add_thread_name(TextBuffer &b, Tid tid) {
  if (tid == 0) b.add("main thread");
  else b.add("thread T").add_u64(tid);
}

const char *wait_noun(WaitKind kind) {
  switch (kind) {
    case WaitKind::kMutex: return "lock";
    case WaitKind::kCond: return "condition variable";
    case WaitKind::kSemaphore: return "semaphore";
    case WaitKind::kBarrier: return "barrier";
    case WaitKind::kOnce: return "once-initialization";
    case WaitKind::kFutex: return "futex";
    case WaitKind::kJoin: return "thread";
    case WaitKind::kIo: return "input/output";
    case WaitKind::kRetry: return "blocking call";
    case WaitKind::kNone: break;
  }
  return "event";
}

// The thread `t` waits for, when one thread can end its wait.
Tid waits_for(const ControlledThread &t) {
  if (t.status != Status::kBlocked) return kNoThread;
  if (t.wait == WaitKind::kJoin) return t.wait_tid;
  if (t.wait == WaitKind::kMutex)
    if (SyncObject *o = find_sync_object(t.wait_addr)) return o->owner;
  if (t.wait == WaitKind::kOnce)
    if (SyncObject *o = find_sync_object(t.wait_addr)) return o->once_runner;
  return kNoThread;
}

void describe_wait(TextBuffer &b, const ControlledThread &t) {
  add_thread_name(b, t.tid);
  if (t.status == Status::kFinished) {
    b.add(" has finished");
    return;
  }
  if (t.status != Status::kBlocked) {
    b.add(" is running");
    return;
  }
  if (t.wait == WaitKind::kJoin) {
    b.add(" joins ");
    add_thread_name(b, t.wait_tid);
    return;
  }
  if (t.wait == WaitKind::kIo) {
    b.add(" waits in ").add(reinterpret_cast<const IoWait *>(t.wait_addr)->name).add("()");
    return;
  }
  b.add(" waits for ").add(wait_noun(t.wait)).add(' ').add_address(t.wait_addr);
  Tid other = waits_for(t);
  if (other != kNoThread) {
    b.add(t.wait == WaitKind::kOnce ? " being run by " : " held by ");
    add_thread_name(b, other);
  } else if (t.wait == WaitKind::kCond) {
    b.add(" (no thread is left to signal it)");
  }
}

void fill_side(Finding &f, const ControlledThread &t, snag_site_t top, const char *role) {
  FindingSide &side = f.add_side();
  side.role = role;
  side.thread = t.tid;
  TextBuffer b;
  describe_wait(b, t);
  b.add('\0');
  copy_text(side.description, sizeof side.description, b.data());
  if (t.state) capture_stack(t.state->shadow, top, &side.stack);
  for (int i = 0; i < t.held_count && side.lock_count < FindingSide::kMaxLocks; ++i) {
    FindingLock &lock = side.locks[side.lock_count++];
    lock.address = t.held[i].address;
    depot_get(t.held[i].stack, &lock.stack);
  }
}

void add_schedule_details(Finding &f) {
  const Plan &plan = current_plan();
  f.add_detail("strategy", strategy_name(plan.strategy));
  f.add_detail("schedule", plan.schedule);
  // The fork server reports for a child that is gone: its saved counters.
  f.add_detail("steps", scheduler().active() ? scheduler().steps() : results().steps);
  f.add_detail("preemptions", results().preemptions);
}

void report(Finding *f) {
  record_failure(f->kind, f->message);
  add_schedule_details(*f);
  report_finding(f);
}

// A finding about one thread (none: the fork server's), with `message` as
// both summary and the side's description.
void report_one_thread(const char *kind, const ThreadState *t, snag_site_t site,
                       TextBuffer &message, uint64_t fault_address = 0) {
  Finding *f = new_finding("explore", kind);
  if (fault_address) f->add_detail("fault_address", fault_address);
  message.add('\0');
  copy_text(f->message, sizeof f->message, message.data());
  FindingSide &side = f->add_side();
  copy_text(side.description, sizeof side.description, f->message);
  if (t) {
    side.thread = t->tid;
    capture_stack(t->shadow, site, &side.stack);
  }
  report(f);
}

// The running thread's report for a fatal signal, then the signal's own
// default action.
void on_failure_signal(int sig, siginfo_t *info, void *context) {
  ThreadState *t = t_current;
  bool first = results().failed.load() == 0;
  if (first && t) {
    ++t->in_runtime;
    TextBuffer b;
    if (sig == SIGTERM) {
      // The schedule timeout (or snag stopping the run) is a limit, not a bug.
      --t->in_runtime;
      end_incomplete_schedule("time");
    } else {
      b.add(sig == SIGABRT ? "abort() called" : sig == SIGSEGV ? "SEGV" : "fatal signal");
      b.add(" (signal ").add_u64(unsigned(sig)).add(')');
      if (sig != SIGABRT) b.add(" on address ").add_address(reinterpret_cast<uintptr_t>(info->si_addr));
      b.add(" in ");
      add_thread_name(b, t->tid);
    }
    report_one_thread("crash", t, __snag_call_site, b, sig == SIGABRT ? 0 : executable_fault_address(context));
    --t->in_runtime;
  }
  // An assertion reported itself just before its abort.
  if (first || sig == SIGABRT) record_failed_schedule();
  if (sig == SIGTERM) raw_syscall(SYS_exit_group, kFailedChildStatus);
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void fail_deadlock(ControlledThread &me) {
  Scheduler &s = scheduler();
  Finding *f = new_finding("explore", "deadlock");
  // Follow "waits for" from the thread that blocked last; a repeat closes
  // a cycle, which is what the report shows. Without one (lost wake-ups,
  // semaphores nobody posts), it shows every blocked thread.
  Tid path[64];
  int length = 0, cycle_start = -1;
  for (Tid tid = me.tid; tid != kNoThread && length < 64 && cycle_start < 0;
       tid = waits_for(*s.thread(tid))) {
    for (int i = 0; i < length; ++i)
      if (path[i] == tid) cycle_start = i;
    if (cycle_start < 0) path[length++] = tid;
  }
  TextBuffer message;
  if (cycle_start >= 0) {
    // Start the cycle at its lowest thread id, so every schedule that finds
    // this deadlock reports it the same way.
    int lowest = cycle_start;
    for (int i = cycle_start; i < length; ++i)
      if (path[i] < path[lowest]) lowest = i;
    int n = length - cycle_start;
    message.add("deadlock: ");
    for (int k = 0; k < n; ++k) {
      const ControlledThread &t = *s.thread(path[cycle_start + (lowest - cycle_start + k) % n]);
      if (k) message.add("; ");
      describe_wait(message, t);
      fill_side(*f, t, t.block_site, "waiting");
    }
  } else {
    message.add("deadlock: no thread can run: ");
    bool first = true;
    for (Tid tid = 0; tid < s.thread_limit(); ++tid) {
      ControlledThread *t = s.thread(tid);
      if (!t || t->status != Status::kBlocked) continue;
      if (!first) message.add("; ");
      first = false;
      describe_wait(message, *t);
      fill_side(*f, *t, t->block_site, "waiting");
    }
  }
  message.add('\0');
  copy_text(f->message, sizeof f->message, message.data());
  f->title = cycle_start >= 0 ? "deadlock (lock cycle)" : "deadlock";
  report(f);
  end_failed_schedule();
}

void end_incomplete_schedule(const char *why) {
  ScheduleResults &r = results();
  if (r.failed.load() != 0) end_failed_schedule();
  copy_text(r.incomplete, sizeof r.incomplete, why);
  scheduler().save_counters(r);
  if (!in_forked_child()) {
    write_schedule_record("schedule", current_plan(), r);
    Summary summary;
    summary.schedules = 1;
    summary.per_strategy[int(current_plan().strategy)] = 1;
    summary.threads = r.threads;
    incomplete_count(summary, why) = 1;
    write_summary(summary);
  }
  findings_finish();
  raw_syscall(SYS_exit_group, in_forked_child() ? kIncompleteChildStatus : 0);
  __builtin_unreachable();
}

void fail_hang(ControlledThread &me, uint64_t window) {
  Scheduler &s = scheduler();
  Finding *f = new_finding("explore", "hang");
  TextBuffer message;
  message.add("livelock: after the step limit, ").add_u64(window).add(
      " more scheduling steps changed no shared state (the threads repeat the same steps)");
  message.add('\0');
  copy_text(f->message, sizeof f->message, message.data());
  // The site of its last scheduling point: in a spin loop, the re-read
  // (inlined atomics leave no call site behind).
  fill_side(*f, me, me.block_site ? me.block_site : __snag_call_site, "running");
  for (Tid tid = 0; tid < s.thread_limit(); ++tid) {
    ControlledThread *t = s.thread(tid);
    if (t && t != &me && t->status == Status::kEnabled) fill_side(*f, *t, 0, "runnable");
  }
  report(f);
  end_failed_schedule();
}

void report_assertion(ThreadState &t, const char *assertion, const char *file, uint64_t line,
                      snag_site_t site) {
  if (results().failed.load() != 0) return;
  TextBuffer b;
  b.add("Assertion `").add(assertion ? assertion : "?").add("' failed at ");
  b.add(file ? file : "?").add(':').add_u64(line).add(" in ");
  add_thread_name(b, t.tid);
  report_one_thread("assertion-failure", &t, site, b);
  // The abort that follows ends the schedule (on_failure_signal).
}

void report_exit_call(ThreadState &t, int status, snag_site_t site) {
  if (results().failed.load() != 0) return;
  TextBuffer b;
  b.add("exit(").add_i64(status).add(") called in ");
  add_thread_name(b, t.tid);
  report_one_thread("exit-status", &t, site, b);
  record_failed_schedule();
}

void report_schedule_end(const char *kind, const char *message) {
  TextBuffer b;
  b.add(message);
  report_one_thread(kind, nullptr, 0, b);
}

void report_output_mismatch(const char *message, const char *where, uint64_t line,
                            const char *reference_line, const char *schedule_line) {
  Finding *f = new_finding("explore", "output-mismatch");
  copy_text(f->message, sizeof f->message, message);
  FindingSide &side = f->add_side();
  copy_text(side.description, sizeof side.description, message);
  f->add_detail("output", where);
  if (line) {
    f->add_detail("output_line", line);
    f->add_detail("reference_line", reference_line);
    f->add_detail("schedule_line", schedule_line);
  }
  report(f);
}

void install_failure_signal_handlers() {
  static const int kFatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM};
  install_where_default(kFatal, sizeof kFatal / sizeof kFatal[0], on_failure_signal);
}

}  // namespace snag::explore
