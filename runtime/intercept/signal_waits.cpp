// Waiting for a signal (sigwait, sigwaitinfo, sigtimedwait) and sending one
// to a thread or process (pthread_kill, kill, raise, sigqueue, tgkill).
//
// Under the scheduler a wait is made as non-blocking attempts (sigtimedwait
// with a zero timeout, blocking_call.h): between attempts the waiter waits in
// the model until some thread sends a signal, so the sender runs meanwhile
// and the waiter gets the signal at the same point of every run. When no
// other thread can run, the signal can only come from outside (another
// process, a timer): the waiter then waits in the kernel.
//
// pause and sigsuspend wait for a signal handler to run. Under the scheduler
// the caller blocks every signal while it waits in the model, so a signal
// sent meanwhile stays pending instead of running its handler on a parked
// thread; once a signal the call lets through is pending, the real
// sigsuspend runs the handler at once, on this thread, which holds the
// baton, and returns. A signal whose handler ran before the call does not
// end it: the call then waits as it would natively (the last resort: in
// the kernel, when no other thread can run).
//
// Ordering: what a thread did before sending a signal happens before what
// the thread that accepted it with a sigwait call does after (the kernel
// hands the signal over). Modelled per signal number, like a release by
// the sender and an acquire by the receiver; a signal sent but never
// accepted by a wait orders nothing (handlers: signals.cpp).
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/thread_stack_lender.h"
#include "intercept/blocking_call.h"
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(int, sigtimedwait, (const sigset_t *, siginfo_t *, const struct timespec *))
SNAG_REAL(int, sigwaitinfo, (const sigset_t *, siginfo_t *))
SNAG_REAL(int, sigsuspend, (const sigset_t *))
SNAG_REAL(int, pthread_kill, (pthread_t, int))
SNAG_REAL(int, kill, (pid_t, int))
SNAG_REAL(int, raise, (int))
SNAG_REAL(int, sigqueue, (pid_t, int, const union sigval))
SNAG_REAL(int, tgkill, (pid_t, pid_t, int))

namespace {

constexpr int kSignals = 65;
char g_signal_sent;                // the key waiters try again on
char g_signal_order[kSignals];     // sender-to-receiver ordering, per signal
constexpr struct timespec kZero = {0, 0};

void order_event(EventKind kind, int sig) {
  ThreadState *t = observing_thread();
  if (!t || sig <= 0 || sig >= kSignals) return;
  Event e{kind};
  e.addr = reinterpret_cast<uintptr_t>(&g_signal_order[sig]);
  emit(t, e);
}

// Before a signal is sent.
void sending(int sig) {
  if (sig == 0) return;  // only a check that the target exists
  order_event(EventKind::kAnnotateHappensBefore, sig);
  wake_attempts(&g_signal_sent);
}

int accepted(int sig) {
  if (sig > 0) order_event(EventKind::kAnnotateHappensAfter, sig);
  return sig;
}

bool zero(const struct timespec *t) { return t && t->tv_sec == 0 && t->tv_nsec == 0; }

// The signal number taken from `set`, or -1 with errno (EAGAIN: timed out).
int wait_for_signal(const char *name, const sigset_t *set, siginfo_t *info,
                    const struct timespec *timeout) {
  if (zero(timeout)) return accepted(real_sigtimedwait()(set, info, timeout));
  bool timed = timeout != nullptr;
  for (uint32_t attempt = 0;; ++attempt) {
    RetryStep step = before_attempt(name, &g_signal_sent, attempt, timed);
    if (step == RetryStep::kTimedOut) {
      errno = EAGAIN;
      return -1;
    }
    if (step == RetryStep::kBlock)
      return accepted(timed ? real_sigtimedwait()(set, info, timeout)
                            : real_sigwaitinfo()(set, info));
    int sig = real_sigtimedwait()(set, info, &kZero);
    if (sig > 0 || errno != EAGAIN) return accepted(sig);
  }
}

// A signal that `mask` (the mask during the wait) lets through is pending.
bool deliverable(const sigset_t *mask) {
  sigset_t pending;
  if (sigpending(&pending) != 0) return false;
  for (int sig = 1; sig < kSignals; ++sig)
    if (sigismember(&pending, sig) == 1 && sigismember(mask, sig) == 0) return true;
  return false;
}

// sigsuspend(mask) as non-blocking checks; -1 with errno, as sigsuspend.
int wait_for_handler(const char *name, const sigset_t *mask) {
  if (!blocking_calls_modelled()) return real_sigsuspend()(mask);
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);
  for (uint32_t attempt = 0;; ++attempt) {
    RetryStep step = before_attempt(name, &g_signal_sent, attempt, false);
    if (step == RetryStep::kTry && !deliverable(mask)) continue;
    int rc = real_sigsuspend()(mask);  // runs the pending handler, or blocks (kBlock)
    int error = errno;
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    errno = error;
    return rc;
  }
}

}  // namespace

SNAG_INTERCEPTOR int sigsuspend(const sigset_t *mask) { return wait_for_handler("sigsuspend", mask); }

SNAG_INTERCEPTOR int pause(void) {
  sigset_t current;
  pthread_sigmask(SIG_BLOCK, nullptr, &current);
  return wait_for_handler("pause", &current);
}

SNAG_INTERCEPTOR int sigwait(const sigset_t *set, int *sig) {
  for (;;) {
    int got = wait_for_signal("sigwait", set, nullptr, nullptr);
    if (got > 0) {
      *sig = got;
      return 0;
    }
    if (errno != EINTR) return errno;  // sigwait is not interrupted by handlers
  }
}

SNAG_INTERCEPTOR int sigwaitinfo(const sigset_t *set, siginfo_t *info) {
  return wait_for_signal("sigwaitinfo", set, info, nullptr);
}

SNAG_INTERCEPTOR int sigtimedwait(const sigset_t *set, siginfo_t *info,
                                  const struct timespec *timeout) {
  return wait_for_signal("sigtimedwait", set, info, timeout);
}

// Whether the leading engine took a signal for another of the program's
// threads over (kSignalSend): the controlled scheduler raises it on that
// thread at its next turn instead.
bool taken_over(pthread_t thread, int sig) {
  ThreadState *t = observing_thread();
  if (!t || sig <= 0 || sig >= kSignals) return false;
  ThreadState *target = thread_by_handle(thread);
  if (!target || target == t) return false;
  Event e{EventKind::kSignalSend};
  e.value = target->tid;
  e.size = static_cast<uint64_t>(sig);
  return emit(t, e).skip_real;
}

SNAG_INTERCEPTOR int pthread_kill(pthread_t thread, int sig) {
  materialize_handle(thread);
  sending(sig);
  if (taken_over(thread, sig)) return 0;
  return real_pthread_kill()(thread, sig);
}

SNAG_INTERCEPTOR int kill(pid_t pid, int sig) {
  sending(sig);
  // A signal for the own process goes to a thread that does not block it,
  // any one (POSIX). The sender, when it does not: the handler then runs
  // before kill returns, at the same point of every run, instead of on a
  // thread the kernel picks while the sender goes on.
  if (sig > 0 && sig < kSignals && pid == getpid() && observing_thread()) {
    sigset_t blocked;
    if (pthread_sigmask(SIG_BLOCK, nullptr, &blocked) == 0 && !sigismember(&blocked, sig))
      return real_tgkill()(getpid(), static_cast<pid_t>(raw_syscall(SYS_gettid)), sig);
  }
  return real_kill()(pid, sig);
}

SNAG_INTERCEPTOR int raise(int sig) {
  sending(sig);
  return real_raise()(sig);
}

SNAG_INTERCEPTOR int sigqueue(pid_t pid, int sig, const union sigval value) {
  sending(sig);
  return real_sigqueue()(pid, sig, value);
}

SNAG_INTERCEPTOR int tgkill(pid_t tgid, pid_t tid, int sig) {
  sending(sig);
  return real_tgkill()(tgid, tid, sig);
}
