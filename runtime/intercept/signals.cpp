// Signal handlers. A handler runs on whatever thread the kernel picked, in
// the middle of that thread's code, so two things need care:
//  - what the program did before installing the handler (sigaction) is
//    ordered before every run of it, and runs of one signal's handler are
//    ordered with each other (ThreadSanitizer's model: a handler acquires the
//    signal's synchronization address on entry and releases it on exit);
//  - a handler does not inherit the interrupted code's ignore ranges
//    (AnnotateIgnoreSync/Reads/Writes): its synchronization and accesses
//    count even when the thread was inside such a range.
// Under the controlled scheduler a handler may also have to wait for its
// thread's turn (kSignalArrived, engines/explore/signal_delivery.h). The
// runtime's own handlers (installed from inside the runtime) are left
// alone.
#include <atomic>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "intercept/real.h"

using namespace snag;

SNAG_REAL(int, sigaction, (int, const struct sigaction *, struct sigaction *))

namespace {

constexpr int kSignals = 65;

// The program's handler of each signal while snag's trampoline stands in
// for it, and whether it takes siginfo (SA_SIGINFO).
std::atomic<uintptr_t> g_handler[kSignals];
std::atomic<bool> g_takes_info[kSignals];
char g_signal_sync[kSignals];

void sync_event(ThreadState *t, EventKind kind, int sig) {
  Event e{kind};
  e.addr = reinterpret_cast<uintptr_t>(&g_signal_sync[sig]);
  emit(t, e);
}

// Whether the leading engine puts the handler off (it raises the signal
// again later). Asked even when the signal interrupted the runtime.
bool put_off(int sig) {
  if (!g_started || !t_current) return false;
  ThreadState *t = t_current;
  Event e{EventKind::kSignalArrived};
  e.value = static_cast<uint64_t>(sig);
  e.flags = t->in_runtime > 0 ? 1 : 0;
  return emit(t, e).skip_real;
}

void trampoline(int sig, siginfo_t *info, void *context) {
  int saved_errno = errno;
  if (put_off(sig)) {
    errno = saved_errno;
    return;
  }
  uintptr_t handler = g_handler[sig].load(std::memory_order_acquire);
  ThreadState *t = observing_thread();
  int ignored[3] = {0, 0, 0};
  if (t) {
    ignored[0] = t->ignore_sync;
    ignored[1] = t->ignore_reads;
    ignored[2] = t->ignore_writes;
    t->ignore_sync = t->ignore_reads = t->ignore_writes = 0;
    sync_event(t, EventKind::kAnnotateHappensAfter, sig);
  }
  errno = saved_errno;
  if (handler) {
    if (g_takes_info[sig].load(std::memory_order_relaxed))
      reinterpret_cast<void (*)(int, siginfo_t *, void *)>(handler)(sig, info, context);
    else
      reinterpret_cast<void (*)(int)>(handler)(sig);
  }
  saved_errno = errno;
  if (t) {
    sync_event(t, EventKind::kAnnotateHappensBefore, sig);
    t->ignore_sync = ignored[0];
    t->ignore_reads = ignored[1];
    t->ignore_writes = ignored[2];
  }
  errno = saved_errno;
}

bool from_program() {
  if (!g_started) return false;
  return current_thread()->in_runtime == 0;
}

// What the program installed, as it would see it, for an old action that
// the kernel reports as the trampoline.
void show_program_handler(int sig, uintptr_t program_handler, bool takes_info, struct sigaction *old) {
  if (!old || old->sa_sigaction != trampoline) return;
  if (takes_info) {
    old->sa_sigaction = reinterpret_cast<void (*)(int, siginfo_t *, void *)>(program_handler);
  } else {
    old->sa_flags &= ~SA_SIGINFO;
    old->sa_handler = reinterpret_cast<void (*)(int)>(program_handler);
  }
  (void)sig;
}

}  // namespace

SNAG_INTERCEPTOR int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (sig <= 0 || sig >= kSignals || !from_program()) return real_sigaction()(sig, act, old);
  uintptr_t previous = g_handler[sig].load(std::memory_order_acquire);
  bool previous_info = g_takes_info[sig].load(std::memory_order_relaxed);
  if (!act) {
    int rc = real_sigaction()(sig, act, old);
    if (rc == 0) show_program_handler(sig, previous, previous_info, old);
    return rc;
  }
  bool takes_info = (act->sa_flags & SA_SIGINFO) != 0;
  uintptr_t handler = takes_info ? reinterpret_cast<uintptr_t>(act->sa_sigaction)
                                 : reinterpret_cast<uintptr_t>(act->sa_handler);
  if (!takes_info && (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN)) {
    int rc = real_sigaction()(sig, act, old);
    if (rc == 0) show_program_handler(sig, previous, previous_info, old);
    return rc;
  }
  if (ThreadState *t = observing_thread()) sync_event(t, EventKind::kAnnotateHappensBefore, sig);
  g_takes_info[sig].store(takes_info, std::memory_order_relaxed);
  g_handler[sig].store(handler, std::memory_order_release);
  struct sigaction ours = *act;
  ours.sa_flags |= SA_SIGINFO;
  ours.sa_sigaction = trampoline;
  int rc = real_sigaction()(sig, &ours, old);
  if (rc == 0) show_program_handler(sig, previous, previous_info, old);
  return rc;
}

SNAG_INTERCEPTOR sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction act = {};
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  struct sigaction old = {};
  if (sigaction(sig, &act, &old) != 0) return SIG_ERR;
  // signal() returns the old handler as a one-argument one even when it
  // took siginfo (glibc does the same).
  if (old.sa_flags & SA_SIGINFO) {
    sighandler_t as_plain;
    memcpy(&as_plain, &old.sa_sigaction, sizeof as_plain);
    return as_plain;
  }
  return old.sa_handler;
}
