// The controlled scheduler: threads run one at a time, and at every
// scheduling point the strategy picks which thread runs next. The running
// thread holds the "baton" (its `turn` word is 1); handing it over wakes the
// chosen thread (only if it sleeps in the kernel: baton.h) and parks the caller on its own turn word. Only the baton
// holder reads or writes scheduler state, so none of it needs a lock.
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/stack.h"
#include "core/thread_state.h"
#include "engines/explore/plan.h"
#include "engines/explore/results.h"

namespace snag::explore {

enum class Status : uint8_t { kEnabled, kBlocked, kFinished };

// What a blocked thread waits for.
enum class WaitKind : uint8_t {
  kNone,
  kMutex,     // wait_addr: the lock (mutex, spin lock, or rwlock)
  kCond,      // wait_addr: the condition variable
  kSemaphore,
  kBarrier,
  kOnce,
  kFutex,
  kJoin,      // wait_tid: the thread being joined
  kIo,        // wait_addr: the IoWait of a call that would block in the kernel (io_waits.h)
  kRetry,     // wait_addr: the key of a call whose non-blocking attempt failed (flock,
              // sigwait, ...); a wake on the key lets it try again, and when no other
              // thread can run it makes the blocking call itself
};

// Why the scheduler is being asked.
enum class PointKind : uint8_t {
  kSync,       // before a synchronization operation (preemptable)
  kAccess,     // before a memory access (preemptable)
  kYield,      // yield or sleep: switching away is not a preemption
  kBlock,      // the running thread just blocked
  kThreadEnd,  // the running thread ended and leaves for good
  kExit,       // the process is about to exit; others may still run first
};

struct HeldLock {
  uintptr_t address;
  StackId stack;
  bool shared;
};

struct ControlledThread {
  static constexpr int kMaxHeld = 8;

  Tid tid = 0;
  ThreadState *state = nullptr;  // set when the thread starts
  // Its role: the stack it was created from (0: the main thread). Threads
  // created by the same call are usually interchangeable workers.
  StackId kind = 0;
  std::atomic<uint32_t> turn{0};  // the baton word: baton.h
  Status status = Status::kEnabled;
  bool deferred = false;  // lazy threads: no kernel thread before its first turn

  // While blocked.
  WaitKind wait = WaitKind::kNone;
  uintptr_t wait_addr = 0;
  Tid wait_tid = kNoThread;
  bool timed = false;            // a timeout may end the wait
  bool spurious_allowed = false;  // a spurious wake-up may end it (condition variables)
  uint64_t wait_order = 0;        // FIFO order among waiters
  snag_site_t block_site = 0;
  // The last wait ended by timeout or spurious wake-up: the next one must
  // not, or a polling loop would never let anyone else run.
  bool last_wait_unforced = false;
  // Out: the last block ended by timeout or spurious wake-up.
  bool woke_unforced = false;

  // A lock waiter's re-check (Scheduler::block_on_lock): once woken and
  // chosen, the thread's only step is to check the lock again in the model
  // and, if it is taken, to block again. While `recheck_blocks` says so, the
  // scheduler takes that step for it (the same wait, the same scheduling
  // point and decision) instead of handing it the baton only for it to hand
  // the baton on: with many waiters on one lock most hand-overs were these.
  bool (*recheck_blocks)(uintptr_t lock, Tid tid, uint32_t flags) = nullptr;
  uint32_t recheck_flags = 0;

  uint64_t priority = 0;
  // Signals handed to this thread while it did not hold the baton (bit N:
  // signal N), raised again on it at its next turn (signal_delivery.h). A
  // blocked thread with a pending signal may be chosen: its handler runs,
  // then its call re-checks what it waits for.
  std::atomic<uint64_t> pending_signals{0};

  // Spin-loop detection: the same location re-read, or yields, without any
  // thread making progress in between.
  uintptr_t spin_addr = 0;
  uint32_t spin_count = 0;
  uint64_t spin_epoch = 0;
  bool spinning = false;

  int held_count = 0;
  HeldLock held[kMaxHeld];
};

// The scheduler's side of an event: each returns once the calling thread
// holds the baton again.
class Scheduler {
 public:
  // Takes control with the calling thread as the only (running) thread.
  void activate(ThreadState &main_thread, const Plan &plan);
  bool active() const { return active_; }
  // Control ends (process exit, or the program forked): threads that hold no
  // baton stay parked; the caller runs free.
  void deactivate() { active_ = false; }

  ControlledThread *thread(Tid tid) const { return tid < capacity_ ? threads_[tid] : nullptr; }
  ControlledThread *running() const { return thread(current_); }
  // Whether `me` holds the baton (any thread may ask, from a signal handler).
  static bool holds_baton(const ControlledThread &me) {
    return me.turn.load(std::memory_order_acquire) == 1;
  }
  ControlledThread *controlled(const ThreadState &t) const {
    return active_ ? thread(t.tid) : nullptr;
  }

  // In the parent, before the thread exists; `kind`: its role (ControlledThread).
  void thread_created(Tid child, StackId kind = 0);
  // First thing on the new thread: waits for its first turn.
  void thread_started(ThreadState &t);
  // The thread ends: wakes its joiners and hands the baton on for good.
  void thread_ended(ControlledThread &me);
  // Whether a thread waits in pthread_join (or a timed join) for `child`.
  bool joining(Tid child) const;

  // A scheduling point. Returns after `me` was chosen to run again.
  void point(ControlledThread &me, PointKind kind);
  // Blocks `me` until another thread wakes it. Returns false when the wait
  // ended by timeout (timed) or spurious wake-up (spurious_allowed) instead.
  bool block(ControlledThread &me, WaitKind kind, uintptr_t addr, bool timed,
             bool spurious_allowed = false, Tid wait_tid = kNoThread);
  // block(me, kMutex, lock, false) from a loop that, once woken, calls
  // `blocks(lock, me.tid, flags)` and blocks again while it returns true.
  // The scheduler may make those checks and blocks itself, at the points
  // where `me` is chosen (see ControlledThread::recheck_blocks).
  void block_on_lock(ControlledThread &me, uintptr_t lock, uint32_t flags,
                     bool (*blocks)(uintptr_t lock, Tid tid, uint32_t flags));

  // Wake-ups: the woken threads become runnable (they re-check their
  // condition when they run).
  void wake_all(WaitKind kind, uintptr_t addr);
  // Wakes the longest-waiting thread; false if there was none.
  bool wake_one(WaitKind kind, uintptr_t addr);
  // Thread `by` changed shared state: threads spinning on it may get
  // somewhere now.
  void progress(Tid by);
  // `me` re-reads `addr` (or yields, addr 0) without having made progress.
  void note_spin(ControlledThread &me, uintptr_t addr);

  void lock_taken(ControlledThread &me, uintptr_t lock, bool shared);
  void lock_released(ControlledThread &me, uintptr_t lock);

  // Copies steps, choice points and thread count into the schedule's results.
  void save_counters(ScheduleResults &r) const;

  uint64_t steps() const { return steps_; }
  uint64_t choice_points() const { return choices_; }
  Tid thread_limit() const { return capacity_; }

 private:
  struct Candidates;
  // Drops finished threads from live_ (keeping its order) and fills `out`.
  void collect(Candidates &out);
  // Threads waiting in kIo whose call would no longer block become runnable.
  void wake_ready_io();
  // Nothing can run: waits in the kernel until a kIo wait may be over.
  void wait_for_any_io();
  // Past max_steps: a livelock fails the schedule, anything else ends it as
  // incomplete.
  void step_limit(ControlledThread &me);
  // `me`'s scheduling point up to the choice: the thread to run next
  // (maybe `me`), or kNoThread when every thread has ended.
  Tid decide(ControlledThread &me, PointKind kind);
  // Whether `t`, chosen to run, would only find its lock taken and block again.
  bool only_blocks_again(const ControlledThread &t) const;
  void enter_wait(ControlledThread &me, WaitKind kind, uintptr_t addr, bool timed,
                  bool spurious_allowed, Tid wait_tid);
  void switch_to(ControlledThread &me, ControlledThread &next);
  void check_baton(const ControlledThread &me) const;

  bool active_ = false;
  Tid current_ = 0;
  Tid capacity_ = 0;
  ControlledThread **threads_ = nullptr;
  // The controlled threads not seen finished yet, in ascending tid order:
  // collect() runs at every scheduling point, and with 100 threads most of
  // its time went to the ones that had already ended.
  Tid *live_ = nullptr;
  Tid live_count_ = 0;
  uint64_t steps_ = 0;
  uint64_t choices_ = 0;
  uint64_t max_steps_ = 0;
  uint64_t wait_counter_ = 0;
  int io_waiting_ = 0;  // threads blocked in kIo
  bool over_limit_ = false;     // past max_steps, watching for a livelock
  uint64_t limit_epoch_ = 0;    // progress_epoch_ when the step limit was reached
  uint64_t progress_epoch_ = 1;
  Tid progress_author_ = kNoThread;
};

Scheduler &scheduler();

}  // namespace snag::explore
