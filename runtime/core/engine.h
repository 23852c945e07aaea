// The engine interface. The engines of a process are chosen at start-up from
// SNAG_OPTIONS (engine=explore+race: the first one named leads the run, the
// others observe it). The core hands every event and access to each of them
// (core/runtime.h); engines do not know each other, the CLI, or how events
// are produced, and report through core/findings.h.
#pragma once

#include <stdint.h>

#include "core/event.h"
#include "core/thread_state.h"

namespace snag {

enum AccessFlags : uint32_t {
  kAccessWrite = 1 << 0,
  kAccessRange = 1 << 1,  // from memcpy/memset/memmove or an odd-sized access
  kAccessQuickAsked = 1 << 2,  // the compiler hooks asked the race fast path's inlined half
};

// What an interceptor does after an event was delivered. An engine that
// models a primitive itself (the controlled scheduler) may tell the
// interceptor to skip the real call and return `result` instead. Only the
// leading engine's verdict counts; observers' verdicts are ignored.
struct Verdict {
  bool skip_real = false;
  long result = 0;
};

// A plain read or write of `size` bytes at `addr` (the hot path: it must not
// take locks or allocate in the common case). A plain function rather than a
// virtual member, so the compiler hooks reach it with one indirect call.
using AccessHook = void (*)(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                            snag_site_t site);

// A call of a member of a thread-unsafe class, marked by the compiler
// (kApiBegin/kApiEnd without a description): the object, ApiCallFlags and
// the call's site. Like AccessHook, a plain function so the hooks reach it
// directly; it runs outside RuntimeScope, so an engine enters one itself
// before doing anything that may reach an interceptor.
using ApiHook = void (*)(ThreadState &t, uintptr_t object, uint32_t flags, snag_site_t site);

// An event delivered without the dispatch (core/runtime.h's emit): the
// compiler's atomic hooks (kAtomicBefore, kAtomicAfter, kFence) call it
// directly when its engine is the only engine of the run. Like AccessHook it
// runs outside RuntimeScope; the engine enters one itself.
using EventHook = void (*)(ThreadState &t, const Event &e);

class Engine {
 public:
  // Set by the engine when it wants memory accesses; the access hooks return
  // after one predictable branch when no engine wants them. An engine that
  // changes it after on_start calls update_engine_hooks() (core/runtime.h).
  AccessHook access_hook = nullptr;
  // Likewise for calls to members of thread-unsafe classes (kApiBegin/End):
  // they sit in the tightest loops (vector::operator[]), so engines that do
  // not use them must not pay for them. An engine that wants them may also
  // take the compiler-marked ones through the hooks below, without an Event
  // (the core uses them when this is the only engine that wants API calls);
  // libc calls and annotations always come as events.
  bool wants_api_calls = false;
  ApiHook api_begin_hook = nullptr;
  ApiHook api_end_hook = nullptr;
  // Set by an engine that takes atomics on a shorter path than on_event
  // (the same events, the same effect): an atomic instruction runs in a
  // lock-free program's tightest loop.
  EventHook atomic_hook = nullptr;
  // Likewise for heap blocks born and freed (kAlloc, kFree from the malloc
  // family and operator new/delete): an allocation-heavy program makes
  // millions of them, and the dispatch (emit's scope and loop, the virtual
  // on_event and its switch) was a tenth of what each one cost. A kFree
  // from the malloc family comes here without its size (kFreeSizeNotGiven,
  // core/event.h).
  EventHook heap_hook = nullptr;
  // Likewise for the lock and condition-variable interceptors' events
  // (kLockBefore, kLockAcquired, kLockFailed, kUnlock, kCondWait,
  // kCondWoken, kCondSignal, kCondBroadcast): a queue's every hand-off
  // makes five or six of them. The engine's verdict there is never to skip
  // the real call (only a leading scheduler takes locks over, and it has
  // no sync_hook). An engine with one also reads a condition variable's
  // own memory itself where the interceptors' touch_object would
  // (kCondWait: its first granule, before; signals: its second, after).
  EventHook sync_hook = nullptr;

  virtual const char *name() const = 0;

  // The runtime has started; `main_thread` is thread 0.
  virtual void on_start(ThreadState &main_thread) { (void)main_thread; }

  // Everything else, in program order per thread.
  virtual Verdict on_event(ThreadState &t, const Event &e) {
    (void)t, (void)e;
    return {};
  }

  // Thread `ended` was joined (after kThreadJoin) or, detached, has left the
  // kernel (after kThreadGone): no code runs on it again, not even its
  // thread_local destructors, and no event will name it. The engine drops
  // what it keeps for it in ended.engine_data, so that the record can be
  // reused and memory stays proportional to live threads.
  virtual void forget_thread(ThreadState &ended) { (void)ended; }

  // The process is exiting (exit(), return from main, or the last thread
  // ending); other threads may still be running. Called once, observers
  // first, so the leading engine sees what they reported.
  virtual void on_exit(int status) { (void)status; }

 protected:
  // Engines live for the whole process and are never deleted.
  ~Engine() = default;
};

// Creates the engine named `name` (placement in runtime memory), or returns
// null when this build has no such engine. See engine_registry.cpp.
Engine *create_engine(const char *name);

}  // namespace snag
