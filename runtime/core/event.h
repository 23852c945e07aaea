// The event stream. Interceptors and compiler hooks turn everything the
// program does that matters for concurrency into events, in the order the
// thread performs them; the active engine consumes them (core/engine.h).
//
// Plain memory accesses do not go through Event: they are the hot path and
// reach the engine through Engine::on_access directly.
#pragma once

#include <stdint.h>

#include "snag/abi.h"

namespace snag {

enum class EventKind : uint8_t {
  // Threads. `value` is the other thread's logical id.
  kThreadCreate,   // in the parent, before the thread exists (value = child)
  kThreadCreated,  // in the parent, after pthread_create (value = child; flags = 1 if it failed)
  kThreadStart,    // first event of the new thread (value = parent)
  kThreadExit,     // last event of a thread
  kThreadJoinBefore,  // in the joiner, before joining (value = joined; flags: kLockTry/kLockTimed)
  kThreadJoin,     // in the joiner, after the join succeeded (value = joined)
  kThreadDetach,   // value = detached thread
  // A detached thread that ended is gone: its kernel thread exited, nothing
  // runs on it any more (value = that thread). Emitted by whichever thread
  // noticed; engines drop what they kept for it, as at a join.
  kThreadGone,

  // Mutexes, spin locks and reader-writer locks. `flags` tells which kind and
  // how (LockFlags). kLockCreate with no kind flag: a condition variable or
  // barrier was initialized. kLockBefore precedes a blocking or try acquisition;
  // kLockAcquired or kLockFailed follows it.
  kLockCreate,
  kLockDestroy,
  kLockBefore,
  kLockAcquired,
  kLockFailed,   // try-lock busy, timed lock timed out, or an error
  kUnlock,

  // Condition variables: addr = condvar, addr2 = its mutex. kCondWait comes
  // before the wait (the mutex is released inside); kCondWoken after it
  // returns with the mutex held again (value = 1 when it timed out).
  kCondWait,
  kCondWoken,
  kCondSignal,
  kCondBroadcast,

  // Barriers (pthread_barrier_t): before and after the wait.
  kBarrierWait,
  kBarrierPassed,

  // Semaphores: post (release); wait before blocking; acquired after success.
  kSemPost,
  kSemWait,
  kSemAcquired,
  kSemFailed,

  // pthread_once / std::call_once: kOnceEnter before; kOnceInitDone in the
  // thread that ran the initializer, right after it; kOnceExit after return.
  kOnceEnter,
  kOnceInitDone,
  kOnceExit,

  // Function-local statics (__cxa_guard_*): addr = the guard object.
  // kGuardAcquired: value = 1 when this thread must run the initializer.
  kGuardAcquired,
  kGuardReleased,
  kGuardAborted,

  // Futex waits and wakes (libstdc++'s atomic wait/notify, latch, barrier,
  // counting_semaphore, futures): addr = futex word.
  kFutexWait,
  kFutexWoken,
  kFutexWake,

  // Atomics (compiler hooks). size, order, value = snag_atomic_op.
  // kAtomicAfter: addr2 = failure order, flags = 1 when a cmpxchg succeeded.
  kAtomicBefore,
  kAtomicAfter,
  kFence,

  // Heap. kAlloc after allocation (addr, size); kFree before the block is
  // given back (addr, size when known; through an engine's heap_hook, flags
  // may carry kFreeSizeNotGiven instead).
  kAlloc,
  kFree,

  // Calls to members of thread-unsafe classes and MT-unsafe libc functions
  // (TSVD points): addr = object, flags = ApiCallFlags (core/api_calls.h),
  // value = the call's description when the site table has none.
  kApiBegin,
  kApiEnd,

  // Annotations in the program (include/snag/annotations.h and
  // ThreadSanitizer's): addr, size; kAnnotateIgnore*: value = 1 to begin.
  kAnnotateHappensBefore,
  kAnnotateHappensAfter,
  kAnnotateBenignRace,

  // Data through a pipe or socket: kFdSend before write/send, kFdReceive
  // after a read/recv that returned data (addr = the descriptor's sync
  // object, value = descriptor).
  kFdSend,
  kFdReceive,

  // Processes and time.
  kForkBefore,
  kForkParent,
  kForkChild,
  kSleep,    // value = microseconds
  kYield,
  kExitCall,     // exit(value) called, before any exit handler runs
  kProgramExit,  // value = exit status

  // A failed assert(): addr = the assertion text, addr2 = the file name
  // (both NUL-terminated), value = the line. glibc aborts right after.
  kAssertFailure,

  // A call that may block in the kernel until something other than the
  // program's modelled synchronization happens (read on a pipe, accept,
  // poll, waitpid, ...), before it is made. addr = a pollfd array whose
  // readiness ends the wait (size = its length), value = the call's timeout
  // in ms (int64_t; -1: none), addr2 = the call's name. flags &
  // kBlockingChildWait: a wait for a child process instead (addr = the id,
  // order = the idtype, size = the waitid options). A skip_real verdict
  // means the wait timed out: the interceptor then makes the call without
  // waiting.
  // flags & kBlockingRetry: a call with a non-blocking form (flock, sigwait,
  // ...) whose non-blocking attempt number `value` is next (0: the first);
  // addr = the key whose kBlockingRetryWake lets it try again, addr2 = the
  // name. The verdict's result is 0 to try, 1 to make the blocking call
  // itself (no other thread can run) or, kBlockingTimed, to time out.
  // flags & kBlockingRetryWake: before a call that may let such calls
  // through (flock(LOCK_UN), pthread_kill, ...), addr = the key.
  kBlockingCall,
  // Memory that starts over, whatever threads did to it before (the kernel
  // ordered that): a new mapping (mmap, and munmap once done), or a new file
  // descriptor's memory in intercept/fd_model.cpp. addr, value = size;
  // flags = kFreshWritten when this thread writes it too (descriptors).
  kMemoryFresh,

  // Signals (intercept/signals.cpp, signal_waits.cpp). kSignalSend: before
  // pthread_kill sends signal `size` to the program's thread `value`; a
  // skip_real verdict means the leading engine took the signal over (the
  // controlled scheduler hands it to that thread at the thread's next turn),
  // so nothing is sent and the call returns 0. kSignalArrived: signal
  // `value` arrived on this thread, before its handler runs; flags = 1 when
  // it interrupted the runtime. A skip_real verdict puts the handler off
  // (the thread does not hold the scheduler's baton: its handler would run
  // beside the thread that does).
  kSignalSend,
  kSignalArrived,

  kCount
};

enum FreshFlags : uint32_t { kFreshWritten = 1 };

enum LockFlags : uint32_t {
  kLockMutex = 1 << 0,
  kLockSpin = 1 << 1,
  kLockRw = 1 << 2,
  kLockRead = 1 << 3,    // shared acquisition of a reader-writer lock
  kLockTry = 1 << 4,
  kLockTimed = 1 << 5,
  kLockRecursive = 1 << 6,  // the mutex type allows re-locking
};

enum BlockingCallFlags : uint32_t {
  kBlockingChildWait = 1 << 0,
  kBlockingOnDescriptor = 1 << 1,  // the call operates on addr's first descriptor
  kBlockingRetry = 1 << 2,
  kBlockingRetryWake = 1 << 3,
  kBlockingTimed = 1 << 4,  // with kBlockingRetry: the call has a timeout
};

// kFree's flags: value is not given, the block being one the malloc family
// hands out (its usable size is malloc_usable_size(addr)). Only on the
// heap_hook path (core/engine.h): the engine finds most blocks' sizes in
// its own records, and asking libc for each cost about 18 instructions per
// free.
constexpr uint32_t kFreeSizeNotGiven = 1u << 16;

struct Event {
  EventKind kind;
  uint32_t flags = 0;
  uint32_t size = 0;
  uint32_t order = 0;
  uintptr_t addr = 0;
  uintptr_t addr2 = 0;
  uint64_t value = 0;
  snag_site_t site = 0;  // where in the program (the call site of the interceptor)
};

const char *event_kind_name(EventKind kind);

}  // namespace snag
