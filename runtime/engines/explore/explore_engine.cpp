// The `explore` engine (docs/explore.md): the controlled scheduler's side of
// every event. Synchronization primitives are modelled here (the real call
// still runs when the model says it cannot block, so the real objects stay
// consistent); blocking ones the scheduler owns entirely (condition
// variables, barriers, futexes) skip the real call.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

#include "core/engine.h"
#include "core/findings.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/runtime.h"
#include "engines/explore/engine_state.h"
#include "engines/explore/failures.h"
#include "engines/explore/fork_server.h"
#include "engines/explore/io_waits.h"
#include "engines/explore/coverage.h"
#include "engines/explore/racy_sites.h"
#include "engines/explore/records.h"
#include "engines/explore/replay_log.h"
#include "engines/explore/results.h"
#include "engines/explore/schedule_setup.h"
#include "engines/explore/scheduler.h"
#include "engines/explore/signal_delivery.h"
#include "engines/explore/strategy.h"
#include "engines/explore/sync_objects.h"
#include "engines/explore/thread_stacks.h"
#include "engines/explore/variables.h"

namespace snag {
namespace explore {

namespace {

Plan g_plan;
bool g_forked_child = false;
bool g_activated = false;
bool g_exit_point_done = false;
// Accesses so far to each plan variable (pctvb / vb change points).
uint64_t g_variable_accesses[kMaxPlanVariables];
// This engine, to install its access hook at activation.
Engine *g_self = nullptr;

// glibc's pthread_once states and barrier layout (nptl/pthreadP.h,
// sysdeps/nptl/internaltypes.h).
constexpr int kOnceDone = 2;
uint32_t barrier_count(uintptr_t barrier) { return reinterpret_cast<const uint32_t *>(barrier)[2]; }

Verdict result(long value) {
  Verdict v;
  v.skip_real = true;
  v.result = value;
  return v;
}

Verdict error_result(int error) {
  errno = error;
  return result(-1);
}

bool parse_hex(const char *&p, uint64_t *out) {
  uint64_t v = 0;
  const char *start = p;
  for (;; ++p) {
    char c = *p;
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) break;
    v = v * 16 + uint64_t(digit);
  }
  *out = v;
  return p != start;
}

// Where the racy-access suffix ("+sites/ID,...", "+addrs/A,...") of a
// points text starts (its terminating NUL without one).
const char *racy_suffix(const char *points) {
  const char *p = points;
  while (*p && *p != '+') ++p;
  return p;
}

void parse_racy_suffix(const char *p) {
  while (*p == '+') {
    if (cstr_starts_with(p, "+sites/")) p = racy_sites_parse(p + 7);
    else if (cstr_starts_with(p, "+addrs/")) p = racy_addresses_parse(p + 7);
    else break;
  }
}

// The replayed schedule's scheduling points: "sync", "accesses" or
// "vars/K1,K2", each optionally followed by "+sites/S1,S2" and
// "+addrs/A1,A2" (records.cpp writes them).
void parse_points(Plan &plan) {
  const char *points = options().text("points");
  const char *suffix = racy_suffix(points);
  parse_racy_suffix(suffix);
  size_t base = size_t(suffix - points);
  if (base == 8 && cstr_starts_with(points, "accesses")) {
    plan.access_points = AccessPoints::kAll;
  } else if (cstr_starts_with(points, "vars/")) {
    // The variables whose accesses were points (a vb plan's, or a cover
    // schedule's shared ones, which may be more than a plan holds).
    plan.access_points = AccessPoints::kShared;
    const char *p = points + 5;
    for (uint64_t key; parse_hex(p, &key); ++p) {
      note_shared_variable(key);
      if (*p != ',') break;
    }
  } else if (!(base == 4 && cstr_starts_with(points, "sync"))) {
    print_error("explore: unknown points option; using synchronization points only");
  }
}

void access_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                 snag_site_t site);

void exit_point();

// Control starts when the program creates its first thread: from here on
// one thread runs at a time.
void activate(ThreadState &t) {
  g_activated = true;
  warm_up_thread_library();
  if (const char *path = options().text("replay")) {
    results_map(false);
    g_plan.strategy = Strategy::kReplay;
    parse_points(g_plan);
    if (!replay_log().load(path, options().flag("replay_lenient")))
      raw_syscall(SYS_exit_group, 2);
    lend_thread_stacks();  // the replayed schedule's threads ran on them
  } else {
    racy_sites_parse(options().text("racy_sites"));
    racy_addresses_parse(options().text("racy_addresses"));
    // Before forking: each schedule inherits them instead of making a dozen
    // system calls and writing to the exit handler list again. (The fork
    // server gives each child the program's own SIGTERM disposition, or
    // this one if the program had none, and leaves by exit_group.)
    install_failure_signal_handlers();
    atexit(exit_point);
    g_plan = fork_schedules();
    g_forked_child = true;
  }
  scheduler().activate(t, g_plan);
  if (!g_forked_child) {
    install_failure_signal_handlers();
    atexit(exit_point);
  }
  if (g_plan.access_points != AccessPoints::kNone || g_plan.profile || racy_sites_any()) {
    g_self->access_hook = access_hook;
    update_engine_hooks();
  }
}

ControlledThread *controlled(ThreadState &t) { return scheduler().controlled(t); }

// Counts an access to `addr` for the profile and, when `addr` belongs to one
// of the plan's variables, applies that variable's change points. Returns
// whether it does. Synchronization objects are variables too (paper 004:
// the variable set may include synchronization operations), so lock-order
// bugs are within reach of vb and pctvb.
bool visit_variable(ControlledThread &me, uintptr_t addr) {
  if (!g_plan.profile && g_plan.access_points != AccessPoints::kVariables) return false;
  uint64_t instance, site_key;
  variable_keys(addr, &instance, &site_key);
  if (g_plan.profile) {
    count_variable_access(instance, me.tid);
    if (site_key != instance) count_variable_access(site_key, me.tid);
  }
  if (g_plan.access_points != AccessPoints::kVariables) return false;
  for (int i = 0; i < g_plan.variable_count; ++i) {
    if (g_plan.variables[i] != instance && g_plan.variables[i] != site_key) continue;
    // Counted in every schedule: a buggy interleaving may access a variable
    // more often than the profiling schedules did, and the planner draws
    // change points from the counts it has seen.
    if (!g_plan.profile) count_variable_access(g_plan.variables[i], me.tid);
    chooser().variable_access(me, i, ++g_variable_accesses[i]);
    return true;
  }
  return false;
}

void access_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                 snag_site_t site) {
  ControlledThread *me = controlled(t);
  if (!me) return;
  RuntimeScope scope(&t);
  Scheduler &s = scheduler();
  if (flags & kAccessWrite) s.progress(me->tid);
  bool plan_variable = visit_variable(*me, addr);
  bool shared = g_plan.access_points == AccessPoints::kShared && in_shared_variable(addr);
  if (g_plan.access_points == AccessPoints::kAll || plan_variable || shared || is_racy_access(site, addr)) {
    me->block_site = site;
    s.point(*me, PointKind::kAccess);
    coverage_access(site);
  }
}

// The scheduling point before a synchronization operation on `e.addr`.
void sync_point(ControlledThread &me, const Event &e) {
  me.block_site = e.site;
  if (e.addr) visit_variable(me, e.addr);
  scheduler().point(me, PointKind::kSync);
}

// Other threads may run before the process exits: bugs that need a thread
// to act after main has returned are found too.
void exit_point() {
  if (g_exit_point_done) return;
  g_exit_point_done = true;
  ThreadState *t = t_current;
  ControlledThread *me = t ? controlled(*t) : nullptr;
  if (!me) return;
  RuntimeScope scope(t);
  scheduler().point(*me, PointKind::kExit);
}


// --- Models of the primitives -------------------------------------------

bool lock_available(const SyncObject &o, Tid me, uint32_t flags) {
  if (flags & kLockRead) return o.owner == kNoThread;
  if (o.owner == me && (flags & kLockRecursive)) return true;
  return o.owner == kNoThread && o.readers == 0;
}

// The re-check of a woken lock waiter, which the scheduler may make for it
// (Scheduler::block_on_lock).
bool lock_blocks(uintptr_t lock, Tid tid, uint32_t flags) {
  return !lock_available(sync_object(lock), tid, flags);
}

void take_lock(SyncObject &o, Tid me, uint32_t flags) {
  if (flags & kLockRead) {
    ++o.readers;
  } else {
    o.owner = me;
    ++o.recursion;
  }
}

Verdict lock_before(ThreadState &t, const Event &e) {
  SyncObject &o = sync_object(e.addr);
  ControlledThread *me = controlled(t);
  if (!me) {
    take_lock(o, t.tid, e.flags);  // before control: the only thread
    return {};
  }
  Scheduler &s = scheduler();
  sync_point(*me, e);
  while (!lock_available(o, me->tid, e.flags)) {
    if (e.flags & kLockTry) {
      s.note_spin(*me, e.addr);
      return result(EBUSY);
    }
    if (!(e.flags & kLockTimed))
      s.block_on_lock(*me, e.addr, e.flags, lock_blocks);
    else if (!s.block(*me, WaitKind::kMutex, e.addr, true))
      return result(ETIMEDOUT);
  }
  take_lock(o, me->tid, e.flags);
  s.lock_taken(*me, e.addr, e.flags & kLockRead);
  return {};
}

void unlock(ThreadState &t, const Event &e) {
  // A scheduling point before the model lets go: until then the lock is
  // still held, so no other thread reaches the real (still locked) lock.
  ControlledThread *me = controlled(t);
  if (me) sync_point(*me, e);
  SyncObject &o = sync_object(e.addr);
  if (o.owner == t.tid) {
    if (o.recursion > 0 && --o.recursion == 0) o.owner = kNoThread;
  } else if (o.readers > 0) {
    --o.readers;
  }
  if (me) {
    Scheduler &s = scheduler();
    s.lock_released(*me, e.addr);
    s.wake_all(WaitKind::kMutex, e.addr);
    s.progress(me->tid);
  }
}

Verdict cond_wait(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  // Another thread may act between the caller's check of its condition and
  // the wait (the classic lost wake-up).
  sync_point(me, e);
  auto *mutex = reinterpret_cast<pthread_mutex_t *>(e.addr2);
  SyncObject &m = sync_object(e.addr2);
  uint32_t recursion = m.recursion ? m.recursion : 1;
  m.owner = kNoThread;
  m.recursion = 0;
  s.lock_released(me, e.addr2);
  s.wake_all(WaitKind::kMutex, e.addr2);
  s.progress(me.tid);
  pthread_mutex_unlock(mutex);  // the real one: the runtime is not observed
  bool woken = s.block(me, WaitKind::kCond, e.addr, e.flags & kLockTimed, true);
  while (!lock_available(m, me.tid, 0)) s.block_on_lock(me, e.addr2, 0, lock_blocks);
  m.owner = me.tid;
  m.recursion = recursion;
  s.lock_taken(me, e.addr2, false);
  pthread_mutex_lock(mutex);
  return result(!woken && (e.flags & kLockTimed) ? ETIMEDOUT : 0);
}

Verdict sem_wait_model(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  sync_point(me, e);
  auto *sem = reinterpret_cast<sem_t *>(e.addr);
  for (;;) {
    if (sem_trywait(sem) == 0) return result(0);
    if (e.flags & kLockTry) {
      s.note_spin(me, e.addr);
      return error_result(EAGAIN);
    }
    if (!s.block(me, WaitKind::kSemaphore, e.addr, e.flags & kLockTimed))
      return error_result(ETIMEDOUT);
  }
}

Verdict barrier_wait(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  sync_point(me, e);
  SyncObject &o = sync_object(e.addr);
  if (++o.arrived >= barrier_count(e.addr)) {
    o.arrived = 0;
    ++o.round;
    s.wake_all(WaitKind::kBarrier, e.addr);
    s.progress(me.tid);
    return result(PTHREAD_BARRIER_SERIAL_THREAD);
  }
  uint64_t round = o.round;
  while (o.round == round) s.block(me, WaitKind::kBarrier, e.addr, false);
  return result(0);
}

void once_enter(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  sync_point(me, e);
  SyncObject &o = sync_object(e.addr);
  while (o.once_runner != kNoThread && o.once_runner != me.tid)
    s.block(me, WaitKind::kOnce, e.addr, false);
  if (!o.once_done && *reinterpret_cast<const int *>(e.addr) != kOnceDone) o.once_runner = me.tid;
}

void once_done(ThreadState &t, const Event &e) {
  SyncObject &o = sync_object(e.addr);
  if (o.once_runner != t.tid) return;
  o.once_runner = kNoThread;
  o.once_done = true;
  if (ControlledThread *me = controlled(t)) {
    scheduler().wake_all(WaitKind::kOnce, e.addr);
    scheduler().progress(me->tid);
  }
}

Verdict futex_wait(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  sync_point(me, e);
  if (*reinterpret_cast<const volatile uint32_t *>(e.addr) != static_cast<uint32_t>(e.value)) {
    s.note_spin(me, e.addr);
    return error_result(EAGAIN);
  }
  if (!s.block(me, WaitKind::kFutex, e.addr, e.flags & kLockTimed)) return error_result(ETIMEDOUT);
  return result(0);
}

Verdict futex_wake(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  long woken = 0;
  while (uint64_t(woken) < e.value && s.wake_one(WaitKind::kFutex, e.addr)) ++woken;
  s.progress(me.tid);
  return result(woken);
}

Verdict join_before(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  sync_point(me, e);
  Tid child = static_cast<Tid>(e.value);
  // A detached thread cannot be joined: glibc's pthread_join returns EINVAL
  // at once, whether the thread still runs or has ended (POSIX leaves it
  // undefined). Waiting for it in the model instead reported a deadlock
  // when the detached thread waited for its joiner, and hid the bug of a
  // joiner that takes the EINVAL for the thread's end.
  if (ThreadState *st = thread_by_tid(child); st && st->is_detached())
    return result(EINVAL);
  ControlledThread *target = s.thread(child);
  while (target && target->status != Status::kFinished) {
    if (e.flags & kLockTry) return result(EBUSY);
    if (!s.block(me, WaitKind::kJoin, child, e.flags & kLockTimed, false, child))
      return result(ETIMEDOUT);
  }
  return {};
}

// glibc's pthread_detach of a thread that another thread is joining
// already leaves it joinable and returns 0, and the join goes on. Here the
// joiner waits in the model, not yet in the real pthread_join, so the real
// detach would succeed and the join then fail with EINVAL.
Verdict detach(const Event &e) {
  if (scheduler().joining(static_cast<Tid>(e.value))) return result(0);
  return {};
}

void atomic_before(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  s.note_spin(me, e.addr);
  sync_point(me, e);
  if (e.value == SNAG_ATOMIC_STORE) coverage_atomic_store(e.addr, e.size, e.site, me.tid);
}

void atomic_after(ControlledThread &me, const Event &e) {
  bool cas_succeeded = e.value == SNAG_ATOMIC_CMPXCHG && e.flags;
  coverage_atomic(e.addr, e.size, e.site, me.tid, cas_succeeded);
  bool changed = e.value == SNAG_ATOMIC_STORE || e.value == SNAG_ATOMIC_RMW || cas_succeeded;
  if (changed) scheduler().progress(me.tid);
}

Verdict yield(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  s.note_spin(me, 1);
  me.block_site = e.site;
  chooser().yielded(me);
  s.point(me, PointKind::kYield);
  return result(0);
}

// A call with a non-blocking form (kBlockingRetry): the first attempt comes
// after a scheduling point; after a failed one the caller waits in the
// model until a wake on its key, and tries again. Result 1: no other thread
// can run (or, timed, the scheduler chose the timeout), so the caller makes
// the blocking call itself, or times out.
Verdict retry_wait(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  if (e.value == 0) {
    sync_point(me, e);
    return result(0);
  }
  me.block_site = e.site;
  bool woken = s.block(me, WaitKind::kRetry, e.addr, e.flags & kBlockingTimed);
  return result(woken ? 0 : 1);
}

// A call that would wait in the kernel waits in the model instead, until it
// would not block (io_waits.h); skip_real says that the scheduler ended the
// wait by timeout.
Verdict blocking_call(ControlledThread &me, const Event &e) {
  Scheduler &s = scheduler();
  if (e.flags & kBlockingRetryWake) {
    sync_point(me, e);
    s.wake_all(WaitKind::kRetry, e.addr);
    s.progress(me.tid);
    return {};
  }
  if (e.flags & kBlockingRetry) return retry_wait(me, e);
  sync_point(me, e);
  IoWait w;
  w.name = reinterpret_cast<const char *>(e.addr2);
  if (e.flags & kBlockingChildWait) {
    w.child = true;
    w.idtype = static_cast<int>(e.order);
    w.id = static_cast<int64_t>(e.addr);
    w.options = static_cast<int>(e.size);
  } else {
    w.fds = reinterpret_cast<pollfd *>(e.addr);
    w.count = e.size;
    w.on_descriptor = e.flags & kBlockingOnDescriptor;
  }
  bool timed = static_cast<int64_t>(e.value) >= 0;
  while (!io_ready(w)) {
    if (!s.block(me, WaitKind::kIo, reinterpret_cast<uintptr_t>(&w), timed)) return result(0);
  }
  return {};
}

// The observing engines (engine=explore+race) have seen the whole schedule
// (they are told of the exit first); what they reported fails it like any
// other oracle. Explore's own failures were recorded first, so they win.
void record_observers_findings() {
  if (findings_reported() == 0) return;
  char message[160] = "the ";
  copy_text(message + cstr_len(message), 40, last_finding_engine());
  copy_text(message + cstr_len(message), 100, " engine reported a finding");
  record_failure(last_finding_kind(), message);
}

void program_exit() {
  scheduler().deactivate();
  if (g_forked_child) {
    scheduler().save_counters(results());
    return;
  }
  // An unforked run: a replay, or a program that never created a thread.
  if (!g_activated) {
    results_map(false);
    g_plan.strategy = options().has("replay") ? Strategy::kReplay : Strategy::kRandom;
  }
  scheduler().save_counters(results());
  if (results().failed.load() == 0) write_schedule_record("schedule", g_plan, results());
  Summary summary;
  summary.schedules = 1;
  summary.failures = results().failed.load() != 0;
  summary.per_strategy[int(g_plan.strategy)] = 1;
  summary.threads = results().threads;
  summary.note = g_activated ? results().note : "the program created no threads: one run, nothing to explore";
  write_summary(summary);
}

}  // namespace

const Plan &current_plan() { return g_plan; }
void set_current_plan(const Plan &plan) { g_plan = plan; }
bool in_forked_child() { return g_forked_child; }

class ExploreEngine final : public Engine {
 public:
  const char *name() const override { return "explore"; }

  void on_start(ThreadState &) override {
    g_self = this;
    records_open();
  }

  // After the observers' on_exit: their findings are all in.
  void on_exit(int) override {
    record_observers_findings();
    program_exit();
  }

  Verdict on_event(ThreadState &t, const Event &e) override {
    coverage_take_store();  // a store announced at the last event is done by now
    switch (e.kind) {
      case EventKind::kAlloc:
        heap_block_allocated(e.addr, e.value, e.site);
        return {};
      case EventKind::kFree:
        heap_block_freed(e.addr);
        return {};
      case EventKind::kLockCreate:
      case EventKind::kLockDestroy: {
        SyncObject &o = sync_object(e.addr);
        o.owner = kNoThread;
        o.recursion = o.readers = 0;
        return {};
      }
      case EventKind::kLockBefore:
        return lock_before(t, e);
      case EventKind::kUnlock:
        unlock(t, e);
        return {};
      case EventKind::kOnceInitDone:
      case EventKind::kOnceExit:
        once_done(t, e);
        return {};
      case EventKind::kAssertFailure:
        report_assertion(t, reinterpret_cast<const char *>(e.addr),
                         reinterpret_cast<const char *>(e.addr2), e.value, e.site);
        return {};
      case EventKind::kProgramExit:
        scheduler().deactivate();
        return {};
      case EventKind::kForkChild:
        // The program forked: its child runs free, outside the exploration.
        scheduler().deactivate();
        return {};
      case EventKind::kThreadCreate:
        if (!g_activated) activate(t);
        if (scheduler().active()) {
          ThreadState *child = thread_by_tid(static_cast<Tid>(e.value));
          scheduler().thread_created(static_cast<Tid>(e.value), child ? child->creation_stack : 0);
        }
        return {};
      case EventKind::kThreadStart:
        scheduler().thread_started(t);
        return {};
      case EventKind::kSignalArrived:
        return signal_arrived(t, e);
      default:
        break;
    }
    ControlledThread *me = controlled(t);
    if (!me) return {};
    Scheduler &s = scheduler();
    switch (e.kind) {
      case EventKind::kThreadCreated:
        if (e.flags) {
          if (ControlledThread *child = s.thread(static_cast<Tid>(e.value)))
            child->status = Status::kFinished;
          return {};
        }
        sync_point(*me, e);
        return {};
      case EventKind::kThreadExit:
        s.thread_ended(*me);
        return {};
      case EventKind::kThreadJoinBefore:
        return join_before(*me, e);
      case EventKind::kThreadDetach:
        return detach(e);
      case EventKind::kCondWait:
        return cond_wait(*me, e);
      case EventKind::kCondSignal:
        sync_point(*me, e);
        s.wake_one(WaitKind::kCond, e.addr);
        s.progress(me->tid);
        return result(0);
      case EventKind::kCondBroadcast:
        sync_point(*me, e);
        s.wake_all(WaitKind::kCond, e.addr);
        s.progress(me->tid);
        return result(0);
      case EventKind::kSemWait:
        return sem_wait_model(*me, e);
      case EventKind::kSemPost:
        sync_point(*me, e);
        s.wake_all(WaitKind::kSemaphore, e.addr);
        s.progress(me->tid);
        return {};
      case EventKind::kBarrierWait:
        return barrier_wait(*me, e);
      case EventKind::kOnceEnter:
        once_enter(*me, e);
        return {};
      case EventKind::kFutexWait:
        return futex_wait(*me, e);
      case EventKind::kFutexWake:
        return futex_wake(*me, e);
      case EventKind::kAtomicBefore:
        atomic_before(*me, e);
        return {};
      case EventKind::kAtomicAfter:
        atomic_after(*me, e);
        return {};
      case EventKind::kSleep:
      case EventKind::kYield:
        return yield(*me, e);
      case EventKind::kBlockingCall:
        return blocking_call(*me, e);
      case EventKind::kSignalSend:
        return signal_send(*me, e);
      case EventKind::kExitCall:
        if (e.value != 0) report_exit_call(t, static_cast<int>(e.value), e.site);
        exit_point();
        return {};
      default:
        return {};
    }
  }
};

}  // namespace explore

Engine *create_explore_engine() {
  static explore::ExploreEngine engine;
  return &engine;
}

}  // namespace snag
