// Per-thread runtime state and the registry of all threads the program ever
// created. Logical thread ids count from 0 (the main thread) in creation
// order; records stay after a thread ends so reports can still name it and
// show where it was created.
#pragma once

#include <atomic>
#include <pthread.h>
#include <stdint.h>

#include "core/platform.h"
#include "core/stack.h"

namespace snag {

using Tid = uint32_t;
constexpr Tid kNoThread = ~Tid(0);
constexpr int kEngineSlots = 4;
// Which engine_data slot each engine uses, so that engines running together
// (engine=explore+race) never share one.
enum EngineSlot : int { kRaceSlot = 0, kTsvSlot = 1, kGuardSlot = 2, kExploreSlot = 3 };

// What ends a thread's record (thread_note_end): the thread's end, and its
// detachment (at creation or by pthread_detach).
enum EndMark : uint8_t { kEnded = 1, kDetachedForGood = 2 };

struct ThreadState {
  Tid tid = 0;
  Tid parent = kNoThread;
  StackId creation_stack = 0;       // where the parent called pthread_create
  std::atomic<pthread_t> handle{0};
  std::atomic<bool> running{false};
  // kEnded | kDetachedForGood once the thread ended and nobody can join it:
  // whichever of the two comes second hands the record to the reaper
  // (thread_note_end).
  std::atomic<uint8_t> end_marks{0};
  bool is_detached() const { return end_marks.load(std::memory_order_relaxed) & kDetachedForGood; }
  int kernel_tid = 0;  // gettid(), set when the thread starts
  // The thread runs on a stack the thread library allocated (default
  // attributes, not a stack the program or an engine gave): the race
  // engine may know how much of it earlier threads used (stack_records.h).
  bool stack_from_library = false;
  ThreadState *next_ending = nullptr;  // in the reaper's list
  char name[32] = {};  // from pthread_setname_np
  ShadowStack shadow;

  // >0 while the runtime itself runs on this thread: hooks and interceptors
  // pass straight through, so the runtime never observes its own work.
  int in_runtime = 0;
  // >0 inside AnnotateIgnore{Reads,Writes}Begin/End and similar.
  int ignore_reads = 0;
  int ignore_writes = 0;
  // >0 inside AnnotateIgnoreSyncBegin/End: the race engine does not order
  // or protect accesses through the locks and signals of the range.
  int ignore_sync = 0;

  // pthread_once passes the user's initializer and the once object to its
  // trampoline here (intercept/barrier_once.cpp).
  void (*pending_once_init)() = nullptr;
  uintptr_t pending_once_addr = 0;

  // Engines keep their per-thread data here (a vector clock, a lockset, ...).
  void *engine_data[kEngineSlots] = {};
};

// The calling thread's state, or null on a thread the runtime has not seen
// yet (for example one created before the runtime started).
extern SNAG_TLS ThreadState *t_current;

// Creates the record for a new thread (called by the parent in pthread_create).
ThreadState *thread_create_record(Tid parent, StackId creation_stack);
// Adopts a thread the runtime did not see being created (main, or threads
// from before start-up); sets t_current.
ThreadState *thread_adopt_current();
// Installs the record on the calling (new) thread.
void thread_attach(ThreadState *state);
// Called when the thread ends: releases its shadow stack.
void thread_detach_current();
// Called after every engine saw `t` joined: its record may be recycled once
// kRetiredRecordsKept more joined threads came after it (thread_by_tid then
// returns null for its id; a report naming it shows no creation stack), so
// that a program running thread after thread keeps records for the threads
// alive plus a fixed number of recent ones. Records an engine still keeps
// data in (engine_data) are left alone.
void thread_retire(ThreadState *t);
constexpr uint32_t kRetiredRecordsKept = 256;

// A detached thread's record is retired like a joined one's, once its kernel
// thread is gone (after its thread_local destructors, which run instrumented
// code after its last event). The thread's end and its detachment (at
// creation or by pthread_detach) are noted here, in either order; the
// record waits in a list until thread_take_gone finds its kernel thread
// gone (tgkill answers ESRCH). The caller then tells the engines
// (EventKind::kThreadGone) and retires it.
void thread_note_end(ThreadState *t, EndMark mark);
// A record from that list whose kernel thread is gone, or null.
ThreadState *thread_take_gone();

ThreadState *thread_by_tid(Tid tid);
// Sets `t`'s handle: the parent's pthread_create and the thread itself.
void thread_set_handle(ThreadState *t, pthread_t handle);
// The newest record holding `handle` (handles are reused), or null.
ThreadState *thread_by_handle(pthread_t handle);
Tid thread_count();

// The calling thread's state, adopting the thread if needed.
SNAG_ALWAYS_INLINE ThreadState *current_thread() {
  ThreadState *t = t_current;
  if (SNAG_UNLIKELY(!t)) t = thread_adopt_current();
  return t;
}

// Fork support: in the child only the forking thread survives.
void threads_after_fork_child();

// RAII guard marking "the runtime is working on this thread".
class RuntimeScope {
 public:
  explicit RuntimeScope(ThreadState *t) : t_(t) { ++t_->in_runtime; }
  ~RuntimeScope() { --t_->in_runtime; }
  RuntimeScope(const RuntimeScope &) = delete;
  RuntimeScope &operator=(const RuntimeScope &) = delete;

 private:
  ThreadState *t_;
};

}  // namespace snag
