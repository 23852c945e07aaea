#include "engines/explore/fork_server.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/findings.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/text_buffer.h"
#include "engines/explore/corpus.h"
#include "engines/explore/coverage.h"
#include "engines/explore/engine_state.h"
#include "engines/explore/failure_bound.h"
#include "engines/explore/failures.h"
#include "engines/explore/inputs.h"
#include "engines/explore/output_oracle.h"
#include "engines/explore/planner.h"
#include "engines/explore/records.h"
#include "engines/explore/results.h"
#include "engines/explore/schedule_setup.h"
#include "engines/explore/thread_stacks.h"
#include "intercept/real.h"

namespace snag::explore {

namespace {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void parse_shard(uint64_t *index, uint64_t *count) {
  *index = 0;
  *count = 1;
  const char *text = options().text("shard");
  if (!text) return;
  const char *slash = text;
  while (*slash && *slash != '/') ++slash;
  uint64_t i, n;
  if (*slash == '/' && parse_u64(text, size_t(slash - text), &i) &&
      parse_u64(slash + 1, cstr_len(slash + 1), &n) && n > 0 && i < n) {
    *index = i;
    *count = n;
  } else {
    print_error("explore: malformed shard option (expected I/N with I < N); using 0/1");
  }
}

// The fork server keeps SIGCHLD blocked, and waits for a schedule's end
// with a timeout in sigtimedwait: no descriptor to open, poll and close per
// schedule (pidfd_open and ppoll cost more than the wait). SIGCHLD must
// then not be ignored (a child would go unreported, and be reaped before
// its status was read). Each child gets the program's mask and SIGCHLD
// disposition back.
uint64_t g_program_mask;  // the kernel's signal mask: 64 bits
struct sigaction g_program_sigchld;
bool g_sigchld_changed = false;

void watch_children() {
  uint64_t chld = uint64_t(1) << (SIGCHLD - 1);
  raw_syscall(SYS_rt_sigprocmask, SIG_BLOCK, reinterpret_cast<long>(&chld),
              reinterpret_cast<long>(&g_program_mask), 8);
  sigaction(SIGCHLD, nullptr, &g_program_sigchld);
  if (g_program_sigchld.sa_handler == SIG_IGN || (g_program_sigchld.sa_flags & SA_NOCLDWAIT)) {
    struct sigaction sa = {};
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, nullptr);
    g_sigchld_changed = true;
  }
}

void restore_program_signals() {
  if (g_sigchld_changed) sigaction(SIGCHLD, &g_program_sigchld, nullptr);
  if (!(g_program_mask & (uint64_t(1) << (SIGCHLD - 1))))
    raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&g_program_mask), 0, 8);
}

// Reaps `pid` if it ended within `timeout_ns`; returns whether it did.
bool reaped_within(pid_t pid, uint64_t timeout_ns, int *status) {
  uint64_t deadline = now_ns() + timeout_ns;
  uint64_t chld = uint64_t(1) << (SIGCHLD - 1);
  for (;;) {
    uint64_t now = now_ns();
    if (now < deadline) {
      uint64_t left = deadline - now;
      timespec limit = {time_t(left / 1000000000ull), long(left % 1000000000ull)};
      // Returns at a SIGCHLD (maybe an earlier one), at the deadline, or at
      // another signal (a stop request): the child's state decides.
      raw_syscall(SYS_rt_sigtimedwait, reinterpret_cast<long>(&chld), 0,
                  reinterpret_cast<long>(&limit), 8);
    }
    long reaped = raw_syscall(SYS_wait4, pid, reinterpret_cast<long>(status), WNOHANG, 0);
    if (reaped == pid) return true;
    if (reaped < 0 && errno != EINTR) return true;  // not our child any more: nothing to wait for
    if (now_ns() >= deadline) return false;
  }
}

// Waits for schedule `index`'s child. After `timeout_ns` (0: none) asks it
// to report and stop (SIGTERM), then kills it. Kills it at once when another
// worker found a failure at a lower index meanwhile (*overtaken): its result
// could no longer be reported (failure_bound.h), and a hanging schedule
// would keep the exploration from ending. Returns the wait status.
int wait_for_schedule(pid_t pid, uint64_t index, uint64_t timeout_ns, bool *timed_out,
                      bool *overtaken) {
  // Only a schedule that runs longer than this sees the bound checked.
  constexpr uint64_t kBoundCheckNs = 50000000ull;
  *timed_out = false;
  *overtaken = false;
  int status = 0;
  for (uint64_t waited = 0; !timeout_ns || waited < timeout_ns;) {
    uint64_t slice = timeout_ns && timeout_ns - waited < kBoundCheckNs ? timeout_ns - waited : kBoundCheckNs;
    if (reaped_within(pid, slice, &status)) return status;
    waited += slice;
    if (after_failure_bound(index)) {
      *overtaken = true;
      kill(pid, SIGKILL);
      break;
    }
  }
  if (!*overtaken) {
    *timed_out = true;
    kill(pid, SIGTERM);
    if (reaped_within(pid, 2000000000ull, &status)) return status;
    kill(pid, SIGKILL);
  }
  while (raw_syscall(SYS_wait4, pid, reinterpret_cast<long>(&status), 0, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// The child's output would repeat the program's output once per schedule:
// it goes to /dev/null when the findings go somewhere else than stderr (the
// fork server looks that up once, not each child).
bool g_silence_children = false;
void silence_child_output() {
  if (!g_silence_children) return;
  int null_fd = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/dev/null"), O_WRONLY));
  if (null_fd < 0) return;
  raw_syscall(SYS_dup2, null_fd, 1);
  raw_syscall(SYS_dup2, null_fd, 2);
  raw_syscall(SYS_close, null_fd);
}

// Reports a failed schedule whose child could not report itself.
void report_unreported(const ScheduleResults &r, int status, bool timed_out) {
  if (r.failed.load() != 0) return;
  TextBuffer b;
  const char *kind;
  if (timed_out) {
    kind = "hang";
    b.add("the schedule did not finish in time and was killed");
  } else if (WIFSIGNALED(status)) {
    kind = "crash";
    b.add("the program was killed by signal ").add_u64(unsigned(WTERMSIG(status)));
  } else {
    kind = "exit-status";
    b.add("the program exited with status ").add_u64(unsigned(WEXITSTATUS(status)));
  }
  b.add('\0');
  report_schedule_end(kind, b.data());
}

// SIGTERM (snag stopping the exploration: --timeout, Ctrl-C): finish the
// current schedule, then write the summary so its count is not lost.
volatile sig_atomic_t g_stop_requested = 0;
void request_stop(int) { g_stop_requested = 1; }
// The program's own disposition, given back to each child.
struct sigaction g_program_sigterm;

void stop_on_sigterm() {
  struct sigaction sa = {};
  sa.sa_handler = request_stop;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, &g_program_sigterm);
}

// Whether the whole worker is pinned (pin_worker_to_own_cpu): its children
// inherit that.
bool g_worker_pinned = false;

// First thing in each child.
void enter_child() {
  if (!g_worker_pinned) pin_schedule_to_current_cpu();
  sigaction(SIGTERM, &g_program_sigterm, nullptr);
  restore_program_signals();
  give_schedule_inputs();
  silence_child_output();
  output_oracle_enter_child();
}

// Forks the child of one schedule; the child (0) has entered its schedule.
pid_t fork_schedule(const Plan &plan) {
  set_current_plan(plan);
  results_reset();
  output_oracle_before_schedule();
  pid_t pid = fork();
  if (pid == 0) enter_child();
  return pid;
}

// A non-zero exit status that nothing in the schedule explains (main
// returned it: no exit() call, no finding) may not depend on the schedule at
// all, like the garbage status of a `void main`. Such a schedule is set
// aside and reported only when no other schedule fails; run again then, to
// have its results.
bool unexplained_exit(const ScheduleResults &r, int status) {
  return r.failed.load() == 0 && WIFEXITED(status) && WEXITSTATUS(status) != 0;
}

// A schedule whose output the output oracle compares: no failure, no limit,
// exit status 0.
bool ended_cleanly(const ScheduleResults &r, int status, bool timed_out) {
  return r.failed.load() == 0 && !r.incomplete[0] && !timed_out && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

}  // namespace

Plan fork_schedules() {
  const Options &o = options();
  Strategy strategy = Strategy::kPortfolio;
  if (const char *name = o.text("strategy"))
    if (!parse_strategy(name, &strategy) || strategy == Strategy::kReplay)
      print_error("explore: unknown strategy; using the portfolio"), strategy = Strategy::kPortfolio;
  uint64_t budget = o.number("schedules");
  uint64_t time_limit = o.seconds_ns("time_limit");
  uint64_t schedule_timeout = o.seconds_ns("schedule_timeout");
  uint64_t shard_index, shard_count;
  parse_shard(&shard_index, &shard_count);
  // This process's schedule k has index shard_index + k * shard_count; those
  // below schedule_from were run by an earlier launch.
  uint64_t from = o.number("schedule_from");
  uint64_t first_k = from > shard_index ? (from - shard_index + shard_count - 1) / shard_count : 0;
  Planner planner;
  planner.start(strategy, run_seed(), uint32_t(o.number("pct_depth")),
                o.flag("preempt_on_access"));

  results_map(true);
  stop_on_sigterm();
  watch_children();
  // What the program buffered so far would otherwise be written once per child.
  fflush(nullptr);
  save_schedule_inputs();
  // Once here rather than once per schedule.
  look_up_all_reals();
  g_silence_children = o.has("findings") || o.has("findings_fd");
  remember_new_stacks();
  g_worker_pinned = pin_worker_to_own_cpu(shard_index, shard_count);
  lend_thread_stacks();
  Summary summary;
  summary.forked = true;
  char note[256] = {};
  uint64_t started = now_ns();
  bool failed = false;
  bool set_aside = false;
  Plan unexplained;
  int unexplained_status = 0;
  uint64_t ended_well = 0;  // schedules that ran to a clean end
  failure_bound_open();
  wait_for_all_workers();
  started = now_ns();  // the wait is not the exploration's time
  // --compare-output: a worker that does not run schedule 0 runs its plan
  // first, uncounted, for the reference output (output_oracle.h).
  if (output_oracle_start() && (shard_index != 0 || from > 0) && !after_failure_bound(0)) {
    Planner fresh;
    fresh.start(strategy, run_seed(), uint32_t(o.number("pct_depth")), o.flag("preempt_on_access"));
    Plan reference = fresh.next(0);
    pid_t pid = fork_schedule(reference);
    if (pid == 0) return reference;
    bool timed_out = false, overtaken = false;
    int status = pid > 0 ? wait_for_schedule(pid, 0, schedule_timeout, &timed_out, &overtaken) : 1;
    learn_new_stacks();
    output_oracle_take_reference(pid > 0 && ended_cleanly(results(), status, timed_out),
                                 results().failed.load() ? nullptr : note, sizeof note);
  }
  for (uint64_t k = first_k; k < budget && !failed; ++k) {
    if (g_stop_requested || (time_limit && now_ns() - started > time_limit)) break;
    uint64_t index = shard_index + k * shard_count;
    if (after_failure_bound(index)) break;
    Plan plan = planner.next(index);
    pid_t pid = fork_schedule(plan);
    if (pid == 0) return plan;
    if (pid < 0) {
      print_error("explore: fork failed; stopping the exploration");
      break;
    }
    bool timed_out, overtaken;
    int status = wait_for_schedule(pid, index, schedule_timeout, &timed_out, &overtaken);
    const ScheduleResults &r = results();
    if (g_stop_requested) break;  // the child was stopped with us, not failed
    if (overtaken) break;
    ++summary.schedules;
    ++summary.per_strategy[int(plan.strategy)];
    if (r.threads > summary.threads) summary.threads = r.threads;
    if (!note[0] && r.note[0]) copy_text(note, sizeof note, r.note);
    planner.learn(r);
    if (coverage_learn(r)) corpus_add(r, plan);
    learn_new_stacks();
    reserve_thread_stacks(r.threads);  // the next schedules' threads take no stack from glibc
    if (output_oracle_active()) {
      if (index == 0)
        output_oracle_take_reference(ended_cleanly(r, status, timed_out),
                                     r.failed.load() ? nullptr : note, sizeof note);
      else if (ended_cleanly(r, status, timed_out))
        output_oracle_differs();  // a difference fails the schedule
    }
    bool clean_exit = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (r.failed.load() == 0 && (r.incomplete[0] || timed_out)) {
      // Stopped at a limit, not by a bug: counted, and the exploration goes on.
      incomplete_count(summary, r.incomplete) += 1;
      // A deferred thread could not be created after its pthread_create had
      // returned 0: later schedules create threads at once, so that the
      // program sees such a failure where it would.
      if (cstr_eq(r.incomplete, "threads")) stop_deferring_threads();
      continue;
    }
    if (unexplained_exit(r, status)) {
      if (!set_aside) set_aside = true, unexplained = plan, unexplained_status = WEXITSTATUS(status);
      continue;
    }
    ++ended_well;
    if (r.failed.load() != 0 || !clean_exit) {
      report_unreported(r, status, timed_out);
      write_schedule_record("failure", plan, r);
      output_oracle_write_record();
      lower_failure_bound(index);
      summary.failures = 1;
      failed = true;
    }
  }
  // When no schedule ended well either, the status does not depend on the
  // interleaving: the program always ends this way.
  if (!failed && set_aside && ended_well == 0 && !note[0]) {
    TextBuffer b;
    b.add("every schedule exited with status ").add_u64(unsigned(unexplained_status));
    b.add(" without a finding (main's return value?): not a failure of an interleaving");
    b.add('\0');
    copy_text(note, sizeof note, b.data());
  } else if (!failed && set_aside && !g_stop_requested && !failure_bound_set()) {
    pid_t pid = fork_schedule(unexplained);
    if (pid == 0) return unexplained;
    bool timed_out = false, overtaken = false;
    int status =
        pid > 0 ? wait_for_schedule(pid, unexplained.schedule, schedule_timeout, &timed_out, &overtaken) : 0;
    if (pid > 0 && !overtaken && (unexplained_exit(results(), status) || results().failed.load() != 0)) {
      report_unreported(results(), status, timed_out);
      write_schedule_record("failure", unexplained, results());
      lower_failure_bound(unexplained.schedule);
      summary.failures = 1;
      failed = true;
    }
  }
  summary.seconds = double(now_ns() - started) / 1e9;
  summary.note = note;
  write_summary(summary);
  findings_finish();
  raw_syscall(SYS_exit_group, failed ? long(o.number("exitcode")) : 0);
  __builtin_unreachable();
}

}  // namespace snag::explore
