// The oracles' reports: deadlock (every controlled thread blocked), hang
// (step bound), assertion failure, crash signal and non-zero exit. Each
// writes one finding (with the stacks of the threads involved), marks the
// schedule failed, and ends it.
#pragma once

#include <stdint.h>

#include "engines/explore/scheduler.h"

namespace snag::explore {

[[noreturn]] void fail_deadlock(ControlledThread &me);
// A livelock: past the step limit, no thread changed shared state for
// `window` steps.
[[noreturn]] void fail_hang(ControlledThread &me, uint64_t window);
// Ends the schedule without a bug, before the program ended: `why` is "step"
// (the step limit) or "time" (the schedule timeout).
[[noreturn]] void end_incomplete_schedule(const char *why);
// From the __assert_fail interceptor, before glibc prints and aborts.
void report_assertion(ThreadState &t, const char *assertion, const char *file, uint64_t line,
                      snag_site_t site);
// exit(status) with a non-zero status, from the thread calling exit.
void report_exit_call(ThreadState &t, int status, snag_site_t site);
// The fork server's report for a schedule that ended without reporting
// itself: killed after the timeout, a signal the child could not catch, or
// main returning a non-zero status.
void report_schedule_end(const char *kind, const char *message);
// The output oracle's report, from the fork server: the schedule's output
// differs from schedule 0's at line `line` of `where` (stdout or a file).
void report_output_mismatch(const char *message, const char *where, uint64_t line,
                            const char *reference_line, const char *schedule_line);
// Crash signals (and SIGTERM from the fork server's timeout) report before
// the process dies. Installed where the program has not set its own.
void install_failure_signal_handlers();

}  // namespace snag::explore
