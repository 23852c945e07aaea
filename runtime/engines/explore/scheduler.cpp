#include "engines/explore/scheduler.h"

#include <linux/futex.h>
#include <sys/syscall.h>

#include "core/debug_assert.h"
#include "core/internal_alloc.h"
#include "core/thread_stack_lender.h"
#include "core/options.h"
#include "core/platform.h"
#include "engines/explore/baton.h"
#include "engines/explore/failures.h"
#include "engines/explore/io_waits.h"
#include "engines/explore/results.h"
#include "engines/explore/signal_delivery.h"
#include "engines/explore/strategy.h"

namespace snag::explore {

namespace {

constexpr Tid kMaxControlledThreads = 8192;
// Re-reading one location (or yielding) this often while no other thread
// makes progress marks a thread as spinning.
constexpr uint32_t kSpinLimit = 100;
// Steps past the step limit without any change of shared state that make
// a livelock.
constexpr uint64_t kLivelockWindow = 10000;

// Only the baton holder builds candidate lists, so one buffer serves all.
Tid g_candidates[kMaxControlledThreads];
Tid g_live[kMaxControlledThreads];

// Whether the ascending `tids` hold `tid`.
bool sorted_contains(const Tid *tids, int n, Tid tid) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (tids[mid] < tid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && tids[lo] == tid;
}

}  // namespace

struct Scheduler::Candidates {
  Tid *tids = g_candidates;
  int n = 0;
};

void Scheduler::activate(ThreadState &main_thread, const Plan &plan) {
  if (!threads_) {
    threads_ = internal_new_array<ControlledThread *>(kMaxControlledThreads);
    live_ = g_live;
  }
  max_steps_ = options().number("max_steps");
  // A schedule counts from zero (unit tests activate more than once per process).
  steps_ = choices_ = wait_counter_ = 0;
  progress_epoch_ = 1;
  progress_author_ = kNoThread;
  chooser().start(plan);
  current_ = main_thread.tid;
  capacity_ = main_thread.tid + 1;
  auto *main = new (internal_alloc(sizeof(ControlledThread))) ControlledThread();
  main->tid = main_thread.tid;
  main->state = &main_thread;
  main->turn.store(1);
  threads_[main->tid] = main;
  live_[0] = main->tid;
  live_count_ = 1;
  chooser().thread_created(*main);
  active_ = true;
}

void Scheduler::thread_created(Tid child, StackId kind) {
  if (child >= kMaxControlledThreads) fatal("explore: more than 8192 threads");
  auto *t = new (internal_alloc(sizeof(ControlledThread))) ControlledThread();
  t->tid = child;
  t->kind = kind;
  threads_[child] = t;
  if (child + 1 > capacity_) capacity_ = child + 1;
  // Thread ids only grow in a process; kept sorted all the same.
  Tid at = live_count_;
  while (at > 0 && live_[at - 1] >= child) --at;
  if (at == live_count_ || live_[at] != child) {
    for (Tid i = live_count_; i > at; --i) live_[i] = live_[i - 1];
    live_[at] = child;
    ++live_count_;
  }
  chooser().thread_created(*t);
  progress(running()->tid);
}

void Scheduler::thread_started(ThreadState &t) {
  ControlledThread *me = thread(t.tid);
  if (!me) return;
  me->state = &t;
  wait_for_baton(me->turn);
  deliver_pending_signals(*me);
}

void Scheduler::thread_ended(ControlledThread &me) {
  me.status = Status::kFinished;
  wake_all(WaitKind::kJoin, me.tid);
  progress(me.tid);
  point(me, PointKind::kThreadEnd);
}

bool Scheduler::joining(Tid child) const {
  for (Tid i = 0; i < live_count_; ++i) {
    const ControlledThread *t = threads_[live_[i]];
    if (t && t->status == Status::kBlocked && t->wait == WaitKind::kJoin && t->wait_tid == child)
      return true;
  }
  return false;
}

void Scheduler::collect(Candidates &out) {
  // Preferred: runnable threads that are not spinning, and waits that may
  // end now by timeout or spurious wake-up. Then spinning threads. Last,
  // timeouts that already happened once in a row: time passes when nothing
  // else can run, so a timed wait is never a deadlock. A spurious wake-up
  // is only offered beside a runnable thread: a program whose every thread
  // waits for a signal that never comes hangs in practice.
  bool runnable = false;
  for (int pass = 0; pass < 3 && out.n == 0; ++pass) {
    Tid kept = 0;
    for (Tid i = 0; i < live_count_; ++i) {
      Tid tid = live_[i];
      ControlledThread *t = threads_[tid];
      if (!t || t->status == Status::kFinished) continue;  // never a candidate again
      live_[kept++] = tid;
      bool spinning = t->spinning && t->spin_epoch == progress_epoch_;
      bool take = false;
      if (t->status == Status::kEnabled) {
        take = pass == 0 ? !spinning : pass == 1;
        runnable |= take;
      } else if (t->status == Status::kBlocked) {
        // A pending signal's handler may run in the middle of any wait.
        if (pass == 0)
          take = ((t->timed || t->spurious_allowed) && !t->last_wait_unforced) ||
                 t->pending_signals.load(std::memory_order_acquire) != 0;
        // A retry wait is the last resort: no other thread can make it
        // succeed, so it blocks in the kernel (for another process, a timer).
        if (pass == 2) take = t->timed || t->wait == WaitKind::kRetry;
      }
      if (take) out.tids[out.n++] = tid;
    }
    live_count_ = kept;
  }
  if (runnable) return;
  // Only waits are left: drop the spurious wake-ups.
  int kept = 0;
  for (int i = 0; i < out.n; ++i) {
    const ControlledThread &t = *threads_[out.tids[i]];
    if (t.status != Status::kBlocked || t.timed || t.wait == WaitKind::kRetry ||
        t.pending_signals.load(std::memory_order_acquire) != 0)
      out.tids[kept++] = out.tids[i];
  }
  out.n = kept;
}

void Scheduler::wake_ready_io() {
  for (Tid tid = 0; tid < capacity_; ++tid) {
    ControlledThread *t = threads_[tid];
    if (t && t->status == Status::kBlocked && t->wait == WaitKind::kIo &&
        io_ready(*reinterpret_cast<const IoWait *>(t->wait_addr))) {
      t->status = Status::kEnabled;
      t->wait = WaitKind::kNone;
    }
  }
}

void Scheduler::wait_for_any_io() {
  // g_candidates is free here: nothing could be chosen.
  auto **waiting = reinterpret_cast<ControlledThread **>(internal_alloc(sizeof(void *) * capacity_));
  int n = 0;
  for (Tid tid = 0; tid < capacity_; ++tid) {
    ControlledThread *t = threads_[tid];
    if (t && t->status == Status::kBlocked && t->wait == WaitKind::kIo) waiting[n++] = t;
  }
  wait_for_io(waiting, n);
  internal_free(waiting);
}

void Scheduler::step_limit(ControlledThread &me) {
  // A schedule this long is a livelock only when its state repeats: the
  // threads keep taking steps but none of them changes anything another
  // could see (no write, atomic update, unlock, wake-up or thread start or
  // end). One such change in the window and the schedule is merely long.
  if (!over_limit_) {
    over_limit_ = true;
    limit_epoch_ = progress_epoch_;
    return;
  }
  if (progress_epoch_ != limit_epoch_) end_incomplete_schedule("step");
  if (steps_ - max_steps_ >= kLivelockWindow) fail_hang(me, kLivelockWindow);
}

// Debug builds: the caller is the one thread holding the baton.
void Scheduler::check_baton(const ControlledThread &me) const {
  SNAG_DEBUG_ASSERT(current_ == me.tid && me.turn.load(std::memory_order_relaxed) == 1,
                    "only the running thread reaches a scheduling point");
  if (!SNAG_DEBUG_ASSERTS_ON) return;
  int holders = 0;
  for (Tid tid = 0; tid < capacity_; ++tid)
    if (threads_[tid] && threads_[tid]->turn.load(std::memory_order_relaxed) == 1) ++holders;
  SNAG_DEBUG_ASSERT(holders == 1, "exactly one controlled thread holds the baton");
}

void Scheduler::point(ControlledThread &me, PointKind kind) {
  if (!active_) return;
  check_baton(me);
  Tid chosen = decide(me, kind);
  if (chosen == kNoThread) return;  // every thread has ended
  // A chosen lock waiter whose lock is still taken would check it, block
  // again and reach its own scheduling point, changing nothing else: the
  // scheduler does that for it here, in the same order (same steps, same
  // decisions, so schedules and replays are unchanged), and the baton goes
  // straight to the thread chosen at the end. The waiter sleeps on.
  while (chosen != me.tid && only_blocks_again(*threads_[chosen])) {
    ControlledThread &waiter = *threads_[chosen];
    current_ = waiter.tid;
    // What block() does when the wait ends, then the loop's block() again.
    waiter.last_wait_unforced = waiter.woke_unforced;
    enter_wait(waiter, WaitKind::kMutex, waiter.wait_addr, false, false, kNoThread);
    chosen = decide(waiter, PointKind::kBlock);
  }
  switch_to(me, *threads_[chosen]);
  // The baton is back: handlers put off while this thread waited for it
  // run now, with the baton, like any other code of the thread.
  if (me.status != Status::kFinished) deliver_pending_signals(me);
}

bool Scheduler::only_blocks_again(const ControlledThread &t) const {
  // Woken by a wake-up (not a timeout or spurious wake-up), no handler to
  // run first, and the lock still taken.
  return t.recheck_blocks && t.status == Status::kEnabled && !t.woke_unforced &&
         t.pending_signals.load(std::memory_order_acquire) == 0 &&
         t.recheck_blocks(t.wait_addr, t.tid, t.recheck_flags);
}

Tid Scheduler::decide(ControlledThread &me, PointKind kind) {
  if (++steps_ > max_steps_) step_limit(me);
  chooser().before_point(me, steps_);
  Candidates c;
  if (io_waiting_) wake_ready_io();
  collect(c);
  // Threads waiting in the kernel are not deadlocked: what they wait for
  // (input, a child process) may still come.
  while (c.n == 0 && io_waiting_) {
    wait_for_any_io();
    wake_ready_io();
    collect(c);
  }
  if (c.n == 0) {
    if (kind == PointKind::kThreadEnd) {
      for (Tid tid = 0; tid < capacity_; ++tid)
        if (threads_[tid] && threads_[tid]->status == Status::kBlocked) fail_deadlock(me);
      return kNoThread;  // every thread has ended
    }
    fail_deadlock(me);
  }
  // Candidates come in ascending tid order (collect walks live_): a binary
  // search, where a scan of up to every thread ran at each point.
  for (int i = 1; SNAG_DEBUG_ASSERTS_ON && i < c.n; ++i)
    SNAG_DEBUG_ASSERT(c.tids[i - 1] < c.tids[i], "candidates in ascending tid order");
  bool me_candidate = me.status == Status::kEnabled && sorted_contains(c.tids, c.n, me.tid);
  Tid chosen = c.tids[0];
  if (c.n > 1) {
    chosen = chooser().choose(c.tids, c.n, me, me_candidate, choices_);
    bool listed = false;
    for (int i = 0; i < c.n; ++i) listed |= c.tids[i] == chosen;
    SNAG_DEBUG_ASSERT(listed, "the strategy picks one of the candidates");
    bool preemptable = kind == PointKind::kSync || kind == PointKind::kAccess ||
                       kind == PointKind::kExit;
    record_decision(chosen, me_candidate && preemptable && chosen != me.tid ? me.tid : kNoThread);
    ++choices_;
  }
  ControlledThread &next = *threads_[chosen];
  if (next.status == Status::kBlocked) {
    // Chosen while blocked: its wait ends by timeout or spurious wake-up,
    // or for a pending signal, whose handler runs before the call checks
    // again what it waits for (as if the call restarted after it).
    next.woke_unforced = next.pending_signals.load(std::memory_order_acquire) == 0;
    next.status = Status::kEnabled;
    next.wait = WaitKind::kNone;
  }
  return chosen;
}

void Scheduler::enter_wait(ControlledThread &me, WaitKind kind, uintptr_t addr, bool timed,
                           bool spurious_allowed, Tid wait_tid) {
  me.status = Status::kBlocked;
  me.wait = kind;
  me.wait_addr = addr;
  me.wait_tid = wait_tid;
  me.timed = timed;
  me.spurious_allowed = spurious_allowed;
  me.wait_order = ++wait_counter_;
  me.woke_unforced = false;
}

bool Scheduler::block(ControlledThread &me, WaitKind kind, uintptr_t addr, bool timed,
                      bool spurious_allowed, Tid wait_tid) {
  enter_wait(me, kind, addr, timed, spurious_allowed, wait_tid);
  if (kind == WaitKind::kIo) ++io_waiting_;
  point(me, PointKind::kBlock);
  if (kind == WaitKind::kIo) --io_waiting_;
  me.last_wait_unforced = me.woke_unforced;
  me.timed = me.spurious_allowed = false;
  return !me.woke_unforced;
}

void Scheduler::block_on_lock(ControlledThread &me, uintptr_t lock, uint32_t flags,
                              bool (*blocks)(uintptr_t lock, Tid tid, uint32_t flags)) {
  me.recheck_blocks = blocks;
  me.recheck_flags = flags;
  block(me, WaitKind::kMutex, lock, false);
  // Running again: its caller checks for itself from here.
  me.recheck_blocks = nullptr;
}

// Only threads that have not finished wait: live_ holds them all.
void Scheduler::wake_all(WaitKind kind, uintptr_t addr) {
  for (Tid i = 0; i < live_count_; ++i) {
    ControlledThread *t = threads_[live_[i]];
    if (t && t->status == Status::kBlocked && t->wait == kind && t->wait_addr == addr) {
      t->status = Status::kEnabled;
      t->wait = WaitKind::kNone;
    }
  }
}

bool Scheduler::wake_one(WaitKind kind, uintptr_t addr) {
  ControlledThread *first = nullptr;
  for (Tid i = 0; i < live_count_; ++i) {
    ControlledThread *t = threads_[live_[i]];
    if (t && t->status == Status::kBlocked && t->wait == kind && t->wait_addr == addr &&
        (!first || t->wait_order < first->wait_order))
      first = t;
  }
  if (!first) return false;
  first->status = Status::kEnabled;
  first->wait = WaitKind::kNone;
  return true;
}

void Scheduler::progress(Tid by) {
  ++progress_epoch_;
  progress_author_ = by;
}

void Scheduler::note_spin(ControlledThread &me, uintptr_t addr) {
  // Progress by another thread since the last look, or a new location:
  // start counting again.
  if ((me.spin_epoch != progress_epoch_ && progress_author_ != me.tid) || me.spin_addr != addr) {
    me.spin_addr = addr;
    me.spin_count = 0;
    me.spinning = false;
  }
  me.spin_epoch = progress_epoch_;
  if (++me.spin_count > kSpinLimit) me.spinning = true;
}

void Scheduler::lock_taken(ControlledThread &me, uintptr_t lock, bool shared) {
  if (me.held_count == ControlledThread::kMaxHeld) return;
  StackId stack = 0;
  if (me.state) {
    StackTrace trace;
    capture_stack(me.state->shadow, __snag_call_site, &trace);
    stack = depot_put(trace);
  }
  me.held[me.held_count++] = {lock, stack, shared};
}

void Scheduler::lock_released(ControlledThread &me, uintptr_t lock) {
  for (int i = me.held_count - 1; i >= 0; --i) {
    if (me.held[i].address != lock) continue;
    for (int j = i; j + 1 < me.held_count; ++j) me.held[j] = me.held[j + 1];
    --me.held_count;
    return;
  }
}

void Scheduler::save_counters(ScheduleResults &r) const {
  r.steps = steps_;
  r.choices = choices_;
  r.threads = capacity_;
}

void Scheduler::switch_to(ControlledThread &me, ControlledThread &next) {
  current_ = next.tid;
  if (&next == &me) return;
  me.turn.store(kBatonAway, std::memory_order_relaxed);
  pass_baton(next.turn);
  if (next.deferred) {
    next.deferred = false;
    materialize_thread(next.tid);
  }
  if (me.status == Status::kFinished) return;  // it leaves for good
  wait_for_baton(me.turn);
}

Scheduler &scheduler() {
  static Scheduler instance;
  return instance;
}

}  // namespace snag::explore
