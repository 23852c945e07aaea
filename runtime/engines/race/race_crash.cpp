// A crash under the race engine: when the program dies of a fatal signal
// (SEGV, BUS, FPE, ILL, abort), the crash is written as a record of kind
// "crash" (the signal, the address, the crashing thread's stack), so that
// the output says the program crashed and where. After a reported race it
// is a finding of its own, next to the race that probably caused it, with
// detail "after_race" = "yes"; without one `snag race` turns it into the
// run's note (cli/run_command.cpp): a crash that no race explains is not a
// race finding, but its line is still worth printing.
// The signal then takes its default action: the process still dies of it
// (snag's exit status is 128 + signal, as a shell's).
#include <signal.h>
#include <string.h>

#include "core/fatal_signals.h"
#include "core/findings.h"
#include "core/text_buffer.h"
#include "engines/race/race_engine.h"
#include "snag/abi.h"

namespace snag::race {

namespace {

std::atomic<bool> g_crash_reported{false};

const char *signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "signal";
  }
}

void report_crash(ThreadState *t, int sig, siginfo_t *info, void *context, bool after_race) {
  Finding *f = new_finding("race", "crash");
  f->title = after_race ? "crash after a data race" : "crash";
  TextBuffer b;
  b.add(sig == SIGSEGV ? "SEGV" : signal_name(sig)).add(" (signal ").add_u64(unsigned(sig)).add(')');
  if (sig != SIGABRT && info) b.add(" on address ").add_address(reinterpret_cast<uintptr_t>(info->si_addr));
  if (t) {
    b.add(" in thread T").add_u64(t->tid);
  }
  if (after_race) b.add(" after a data race was reported");
  b.add('\0');
  copy_text(f->message, sizeof f->message, b.data());
  f->add_detail("signal", signal_name(sig));
  if (after_race) f->add_detail("after_race", "yes");
  if (uint64_t at = sig == SIGABRT ? 0 : executable_fault_address(context)) f->add_detail("fault_address", at);
  FindingSide &side = f->add_side();
  // Not "current": inside a signal handler the report path must not walk
  // the native stack (the unwinder's first use loads a library).
  side.role = "crashed";
  copy_text(side.description, sizeof side.description, f->message);
  if (t) {
    side.thread = t->tid;
    capture_stack(t->shadow, __snag_call_site, &side.stack);
  }
  report_finding(f);
}

void on_fatal_signal(int sig, siginfo_t *info, void *context) {
  ThreadState *t = t_current;
  bool expected = false;
  if (g_crash_reported.compare_exchange_strong(expected, true)) {
    if (t) ++t->in_runtime;
    report_crash(t, sig, info, context, races_reported() > 0);
    if (t) --t->in_runtime;
  }
  // The signal's own action: the process dies of it, with a core if that is
  // what the signal does.
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void install_crash_handlers() {
  static const int kFatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  install_where_default(kFatal, sizeof kFatal / sizeof kFatal[0], on_fatal_signal);
}

}  // namespace snag::race
