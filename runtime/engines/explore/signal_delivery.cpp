#include "engines/explore/signal_delivery.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/platform.h"

namespace snag::explore {

namespace {

constexpr int kSignals = 65;

uint64_t signal_bit(uint64_t sig) { return uint64_t(1) << sig; }

Verdict taken_over() {
  Verdict v;
  v.skip_real = true;
  return v;
}

}  // namespace

Verdict signal_arrived(ThreadState &t, const Event &e) {
  Scheduler &s = scheduler();
  ControlledThread *me = s.controlled(t);
  if (!me || e.value == 0 || e.value >= kSignals) return {};
  bool interrupted_runtime = e.flags != 0;
  if (Scheduler::holds_baton(*me) && !interrupted_runtime) return {};
  me->pending_signals.fetch_or(signal_bit(e.value), std::memory_order_acq_rel);
  return taken_over();
}

Verdict signal_send(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  ControlledThread *target = s.thread(static_cast<Tid>(e.value));
  if (!target || target == &me || target->status == Status::kFinished || e.size == 0 ||
      e.size >= kSignals)
    return {};
  target->pending_signals.fetch_or(signal_bit(e.size), std::memory_order_acq_rel);
  s.progress(me.tid);
  return taken_over();
}

void deliver_pending_signals(ControlledThread &me) {
  if (me.pending_signals.load(std::memory_order_acquire) == 0 || !me.state) return;
  uint64_t pending = me.pending_signals.exchange(0, std::memory_order_acq_rel);
  // The handlers are the program's code: their calls are observed (the
  // runtime is working on this thread only up to here).
  ThreadState &t = *me.state;
  int in_runtime = t.in_runtime;
  int saved_errno = errno;
  t.in_runtime = 0;
  long pid = raw_syscall(SYS_getpid);
  long tid = raw_syscall(SYS_gettid);
  for (int sig = 1; sig < kSignals; ++sig)
    if (pending & signal_bit(sig)) raw_syscall(SYS_tgkill, pid, tid, sig);
  t.in_runtime = in_runtime;
  errno = saved_errno;
}

}  // namespace snag::explore
