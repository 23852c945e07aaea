// Thread life cycle: pthread_create/join/detach/exit. std::thread, jthread
// and std::async all come through pthread_create.
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "core/internal_alloc.h"
#include "core/thread_stack_lender.h"
#include "intercept/real.h"

using namespace snag;

const ThreadStackLender *snag::g_thread_stack_lender = nullptr;
bool (*snag::g_defer_thread)(Tid) = nullptr;
void (*snag::g_deferred_creation_failed)(int) = nullptr;

SNAG_REAL(int, pthread_create, (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))
SNAG_REAL(int, pthread_join, (pthread_t, void **))
SNAG_REAL(int, pthread_tryjoin_np, (pthread_t, void **))
SNAG_REAL(int, pthread_timedjoin_np, (pthread_t, void **, const struct timespec *))
SNAG_REAL(int, pthread_clockjoin_np, (pthread_t, void **, clockid_t, const struct timespec *))
SNAG_REAL(int, pthread_detach, (pthread_t))
SNAG_REAL(void, pthread_exit, (void *))
SNAG_REAL(int, pthread_setname_np, (pthread_t, const char *))
SNAG_REAL(int, pthread_getname_np, (pthread_t, char *, size_t))
SNAG_REAL(int, pthread_getattr_np, (pthread_t, pthread_attr_t *))
SNAG_REAL(int, pthread_setschedparam, (pthread_t, int, const struct sched_param *))
SNAG_REAL(int, pthread_getschedparam, (pthread_t, int *, struct sched_param *))
SNAG_REAL(int, pthread_setschedprio, (pthread_t, int))
SNAG_REAL(int, pthread_setaffinity_np, (pthread_t, size_t, const cpu_set_t *))
SNAG_REAL(int, pthread_getaffinity_np, (pthread_t, size_t, cpu_set_t *))
SNAG_REAL(int, pthread_cancel, (pthread_t))
SNAG_REAL(int, pthread_sigqueue, (pthread_t, int, const union sigval))
SNAG_REAL(int, pthread_getcpuclockid, (pthread_t, clockid_t *))
SNAG_REAL(int, sched_setaffinity, (pid_t, size_t, const cpu_set_t *))
SNAG_REAL(int, sched_setscheduler, (pid_t, int, const struct sched_param *))
SNAG_REAL(int, sched_setparam, (pid_t, const struct sched_param *))
SNAG_REAL(int, setpriority, (int, id_t, int))
SNAG_REAL(int, nice, (int))
SNAG_REAL(int, prctl, (int, unsigned long, unsigned long, unsigned long, unsigned long))

namespace {

struct StartArgs {
  void *(*start)(void *);
  void *arg;
  ThreadState *state;
  sigset_t mask;  // the creator's signal mask, for the child once it is known
};

// A new thread starts with every signal blocked and gets its creator's mask
// back once the runtime knows it: a handler that ran before that (a
// pthread_kill right after pthread_create) was taken for a thread of its own
// and raced with the thread it interrupted. Raw system calls: the kernel's
// mask is the first 8 bytes of a sigset_t.
void set_signal_mask(const sigset_t *mask, sigset_t *old) {
  raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(mask),
              reinterpret_cast<long>(old), 8);
}

// The calling thread's mask, unchanged (SIG_BLOCK of no set only reads it).
void read_signal_mask(sigset_t *mask) {
  raw_syscall(SYS_rt_sigprocmask, SIG_BLOCK, 0, reinterpret_cast<long>(mask), 8);
}

void thread_finished(ThreadState *t) {
  if (!t->running.load(std::memory_order_acquire)) return;
  emit(t, make_event(EventKind::kThreadExit));
  thread_detach_current();
  thread_note_end(t, kEnded);
}

// Detached threads whose kernel threads are gone: the engines drop what they
// kept for them and their records are retired, as at a join, so that a
// program starting detached thread after thread keeps memory (and vector
// clocks) for the threads alive only. Called by threads that create, join
// or detach threads; costs one load when there is nothing to do.
void retire_gone_threads(ThreadState *t) {
  while (ThreadState *gone = thread_take_gone()) {
    Event e{EventKind::kThreadGone};
    e.value = gone->tid;
    emit(t, e);
    if (g_thread_stack_lender) g_thread_stack_lender->give_back(gone->tid);
    retire_thread(t, gone);
  }
}

void *thread_start(void *p) {
  StartArgs args = *static_cast<StartArgs *>(p);
  internal_free(p);
  thread_attach(args.state);
  __snag_call_site = 0;
  Event e = make_event(EventKind::kThreadStart);
  e.value = args.state->parent;
  emit(args.state, e);
  set_signal_mask(&args.mask, nullptr);
  void *result = args.start(args.arg);
  thread_finished(args.state);
  return result;
}

// Whether `attr` carries a stack of the program's (pthread_attr_setstack or
// setstackaddr). glibc keeps the stack's top, null unless one was given,
// and pthread_attr_getstack answers that top minus the size.
bool attr_gives_stack(const pthread_attr_t *attr) {
  if (!attr) return false;
  void *lowest = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(attr, &lowest, &size) != 0) return true;  // cannot tell: as given
  return reinterpret_cast<uintptr_t>(lowest) + size != 0;
}

// Attributes with a stack the lender lends to thread `tid`; false: none.
bool lend_stack(Tid tid, pthread_attr_t *attr) {
  void *stack;
  size_t size;
  if (!g_thread_stack_lender->lend(tid, &stack, &size)) return false;
  if (pthread_attr_init(attr) == 0) {
    if (pthread_attr_setstack(attr, stack, size) == 0) return true;
    pthread_attr_destroy(attr);
  }
  g_thread_stack_lender->give_back(tid);
  return false;
}

// Deferred creations (lazy threads). glibc puts the descriptor of a thread
// on a user stack at a fixed distance below the stack's top (page-aligned
// tops), learned before the schedules fork (learn_deferred_handle_offset);
// while it is not known (0), nothing is deferred.
struct Pending {
  StartArgs *args = nullptr;
  void *base = nullptr;
  size_t size = 0;
  pthread_t predicted = 0;
};
constexpr Tid kMaxPending = 8192;
Pending g_pending[kMaxPending];
uintptr_t g_handle_offset = 0;

// A kernel thread inherits its creator's CPU affinity, scheduling policy and
// priority, nice value, name and timer slack. A deferred thread is created
// by whichever thread first hands it the baton, so it may defer only while
// those are the same in every thread: until the program changes one for a
// single thread. From then on, new threads are created at once.
std::atomic<bool> g_thread_attributes_changed{false};

void thread_attributes_change() { g_thread_attributes_changed.store(true, std::memory_order_relaxed); }

}  // namespace

// A deferred thread is created before any call that reads its descriptor.
void snag::materialize_handle(pthread_t thread) {
  if (!g_handle_offset) return;  // nothing was deferred in this process
  if (ThreadState *child = thread_by_handle(thread)) materialize_thread(child->tid);
}

namespace {

// Joins through `join` and reports the join when it succeeded.
template <typename Join>
int observed_join(pthread_t thread, uint32_t flags, Join join) {
  ThreadState *t = observing_thread();
  if (!t) return join();
  // Look the child up before joining: once joined, its handle may be reused.
  ThreadState *child = thread_by_handle(thread);
  snag_site_t site = caller_site();
  if (child) {
    Event before{EventKind::kThreadJoinBefore};
    before.site = site;
    before.value = child->tid;
    before.flags = flags;
    Verdict v = emit(t, before);
    if (v.skip_real) return static_cast<int>(v.result);
  }
  materialize_handle(thread);  // no-op once the model saw it end
  int rc = join();
  if (rc == 0 && child) {
    Event e{EventKind::kThreadJoin};
    e.site = site;
    e.value = child->tid;
    emit(t, e);
    if (g_thread_stack_lender) g_thread_stack_lender->give_back(child->tid);
    retire_thread(t, child);  // memory for live threads, not every thread ever joined
  }
  retire_gone_threads(t);
  return rc;
}

}  // namespace

SNAG_INTERCEPTOR int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                  void *(*start)(void *), void *arg) {
  ThreadState *t = observing_thread();
  if (!t) return real_pthread_create()(thread, attr, start, arg);
  retire_gone_threads(t);  // first, so that the child may take a slot one of them had
  StackTrace creation;
  capture_stack(t->shadow, caller_site(), &creation);
  ThreadState *child = thread_create_record(t->tid, depot_put(creation));
  int detach_state;
  if (attr && pthread_attr_getdetachstate(attr, &detach_state) == 0 && detach_state == PTHREAD_CREATE_DETACHED)
    thread_note_end(child, kDetachedForGood);
  Event e = make_event(EventKind::kThreadCreate);
  e.value = child->tid;
  Verdict v = emit(t, e);
  if (v.skip_real) return static_cast<int>(v.result);
  auto *args = static_cast<StartArgs *>(internal_alloc(sizeof(StartArgs)));
  sigset_t all, creator_mask;
  sigfillset(&all);
  // A thread that may be deferred: no thread starts here, so the creator's
  // mask is only read (one system call, not two), for the child to get once
  // it exists (materialize_thread blocks signals around its creation). If
  // it is created at once after all, signals are blocked for that below.
  bool may_defer = !attr && g_thread_stack_lender && g_handle_offset && child->tid < kMaxPending &&
                   g_defer_thread && !g_thread_attributes_changed.load(std::memory_order_relaxed);
  if (may_defer)
    read_signal_mask(&creator_mask);
  else
    set_signal_mask(&all, &creator_mask);
  *args = {start, arg, child, creator_mask};
  // A stack lent by an engine, for a thread with default attributes.
  pthread_attr_t lent;
  bool lending = !attr && g_thread_stack_lender && lend_stack(child->tid, &lent);
  child->stack_from_library = !lending && !attr_gives_stack(attr);  // before the child can start
  void *base = nullptr;
  size_t size = 0;
  if (lending) pthread_attr_getstack(&lent, &base, &size);
  int rc;
  bool deferred = may_defer && lending && g_defer_thread(child->tid);
  if (deferred) {
    uintptr_t top = reinterpret_cast<uintptr_t>(base) + size;
    g_pending[child->tid] = {args, base, size, static_cast<pthread_t>(top - g_handle_offset)};
    *thread = g_pending[child->tid].predicted;
    rc = 0;
  } else {
    if (may_defer) set_signal_mask(&all, nullptr);
    rc = real_pthread_create()(thread, lending ? &lent : attr, thread_start, args);
    set_signal_mask(&creator_mask, nullptr);  // args may be gone: the child frees them
  }
  if (lending) {
    pthread_attr_destroy(&lent);
    if (rc != 0) g_thread_stack_lender->give_back(child->tid);
  }
  if (rc == 0) {
    thread_set_handle(child, *thread);
  } else {
    internal_free(args);
    child->running.store(false, std::memory_order_release);
  }
  Event created = make_event(EventKind::kThreadCreated);
  created.value = child->tid;
  created.flags = rc != 0;
  emit(t, created);
  return rc;
}

void snag::materialize_thread(Tid tid) {
  if (tid >= kMaxPending || !g_pending[tid].args) return;
  Pending p = g_pending[tid];
  g_pending[tid] = {};
  sigset_t all, mask;
  sigfillset(&all);
  set_signal_mask(&all, &mask);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, p.base, p.size);
  pthread_t handle;
  int rc = real_pthread_create()(&handle, &attr, thread_start, p.args);
  pthread_attr_destroy(&attr);
  set_signal_mask(&mask, nullptr);
  if (rc == 0 && handle != p.predicted) fatal("explore: a deferred thread's handle is not the one predicted");
  // Too late to tell the program (its pthread_create returned 0): the
  // engine ends the schedule as incomplete.
  if (rc != 0) g_deferred_creation_failed(rc);
}

namespace {
void *return_at_once(void *) { return nullptr; }
}  // namespace

void snag::learn_deferred_handle_offset() {
  if (g_handle_offset) return;
  // Any page-aligned user stack large enough for the static TLS: the
  // descriptor's distance from the top does not depend on the size.
  constexpr size_t kSize = 256 * 1024;
  long p = raw_syscall(SYS_mmap, 0, long(kSize), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p < 0 && p > -4096) return;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, reinterpret_cast<void *>(p), kSize);
  pthread_t thread;
  if (real_pthread_create()(&thread, &attr, return_at_once, nullptr) == 0) {
    g_handle_offset = uintptr_t(p) + kSize - static_cast<uintptr_t>(thread);
    real_pthread_join()(thread, nullptr);
  }
  pthread_attr_destroy(&attr);
  raw_syscall(SYS_munmap, p, long(kSize));
}

void snag::drop_deferred_threads() {
  for (Tid tid = 0; tid < kMaxPending; ++tid) g_pending[tid] = {};
}

SNAG_INTERCEPTOR int pthread_join(pthread_t thread, void **result) {
  return observed_join(thread, 0, [&] { return real_pthread_join()(thread, result); });
}

SNAG_INTERCEPTOR int pthread_tryjoin_np(pthread_t thread, void **result) {
  return observed_join(thread, kLockTry,
                       [&] { return real_pthread_tryjoin_np()(thread, result); });
}

SNAG_INTERCEPTOR int pthread_timedjoin_np(pthread_t thread, void **result,
                                        const struct timespec *deadline) {
  return observed_join(thread, kLockTimed,
                       [&] { return real_pthread_timedjoin_np()(thread, result, deadline); });
}

SNAG_INTERCEPTOR int pthread_clockjoin_np(pthread_t thread, void **result, clockid_t clock,
                                        const struct timespec *deadline) {
  return observed_join(thread, kLockTimed, [&] {
    return real_pthread_clockjoin_np()(thread, result, clock, deadline);
  });
}

SNAG_INTERCEPTOR int pthread_detach(pthread_t thread) {
  materialize_handle(thread);
  ThreadState *t = observing_thread();
  ThreadState *child = t ? thread_by_handle(thread) : nullptr;
  if (child) {
    Event e = make_event(EventKind::kThreadDetach);
    e.value = child->tid;
    // The explore engine answers for a thread its joiner waits for.
    Verdict v = emit(t, e);
    if (v.skip_real) return static_cast<int>(v.result);
  }
  int rc = real_pthread_detach()(thread);
  if (child && rc == 0) thread_note_end(child, kDetachedForGood);
  if (t) retire_gone_threads(t);
  return rc;
}

SNAG_INTERCEPTOR void pthread_exit(void *result) {
  if (ThreadState *t = observing_thread()) thread_finished(t);
  real_pthread_exit()(result);
  __builtin_unreachable();
}

// Thread names appear in reports and in `thread:` suppressions.
SNAG_INTERCEPTOR int pthread_setname_np(pthread_t thread, const char *name) {
  materialize_handle(thread);
  thread_attributes_change();
  if (observing_thread())
    if (ThreadState *target = thread_by_handle(thread)) copy_text(target->name, sizeof target->name, name);
  return real_pthread_setname_np()(thread, name);
}

// The other calls that read a thread's descriptor.
SNAG_INTERCEPTOR int pthread_getname_np(pthread_t thread, char *name, size_t size) {
  materialize_handle(thread);
  return real_pthread_getname_np()(thread, name, size);
}
SNAG_INTERCEPTOR int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr) {
  materialize_handle(thread);
  return real_pthread_getattr_np()(thread, attr);
}
SNAG_INTERCEPTOR int pthread_setschedparam(pthread_t thread, int policy, const struct sched_param *param) {
  materialize_handle(thread);
  thread_attributes_change();
  return real_pthread_setschedparam()(thread, policy, param);
}
SNAG_INTERCEPTOR int pthread_getschedparam(pthread_t thread, int *policy, struct sched_param *param) {
  materialize_handle(thread);
  return real_pthread_getschedparam()(thread, policy, param);
}
SNAG_INTERCEPTOR int pthread_setschedprio(pthread_t thread, int prio) {
  materialize_handle(thread);
  thread_attributes_change();
  return real_pthread_setschedprio()(thread, prio);
}
SNAG_INTERCEPTOR int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t *set) {
  materialize_handle(thread);
  thread_attributes_change();
  return real_pthread_setaffinity_np()(thread, size, set);
}
SNAG_INTERCEPTOR int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set) {
  materialize_handle(thread);
  return real_pthread_getaffinity_np()(thread, size, set);
}
SNAG_INTERCEPTOR int pthread_cancel(pthread_t thread) {
  materialize_handle(thread);
  return real_pthread_cancel()(thread);
}
SNAG_INTERCEPTOR int pthread_sigqueue(pthread_t thread, int sig, const union sigval value) {
  materialize_handle(thread);
  return real_pthread_sigqueue()(thread, sig, value);
}
SNAG_INTERCEPTOR int pthread_getcpuclockid(pthread_t thread, clockid_t *clock) {
  materialize_handle(thread);
  return real_pthread_getcpuclockid()(thread, clock);
}

// The calls that change what a new kernel thread inherits from its creator
// (g_thread_attributes_changed), by thread id rather than handle. Raw
// system calls and writes to /proc/self/task/N/comm are not seen
// (docs/explore.md).
SNAG_INTERCEPTOR int sched_setaffinity(pid_t tid, size_t size, const cpu_set_t *set) {
  thread_attributes_change();
  return real_sched_setaffinity()(tid, size, set);
}
SNAG_INTERCEPTOR int sched_setscheduler(pid_t tid, int policy, const struct sched_param *param) {
  thread_attributes_change();
  return real_sched_setscheduler()(tid, policy, param);
}
SNAG_INTERCEPTOR int sched_setparam(pid_t tid, const struct sched_param *param) {
  thread_attributes_change();
  return real_sched_setparam()(tid, param);
}
SNAG_INTERCEPTOR int setpriority(int which, id_t who, int prio) {
  thread_attributes_change();
  return real_setpriority()(which, who, prio);
}
SNAG_INTERCEPTOR int nice(int increment) {
  thread_attributes_change();
  return real_nice()(increment);
}
// prctl is variadic; its arguments are four unsigned longs at most.
SNAG_INTERCEPTOR int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
                           unsigned long a5) {
  constexpr int kSetName = 15, kSetTimerSlack = 29;  // PR_SET_NAME, PR_SET_TIMERSLACK
  if (option == kSetName || option == kSetTimerSlack) thread_attributes_change();
  return real_prctl()(option, a2, a3, a4, a5);
}
