// The engine interface. Exactly one engine is active in a process, chosen at
// start-up from SNAG_OPTIONS (engine=...). Engines do not know each other,
// the CLI, or how events are produced; they see the event stream and the
// memory accesses, and report through core/findings.h.
#pragma once

#include <stdint.h>

#include "core/event.h"
#include "core/thread_state.h"

namespace snag {

enum AccessFlags : uint32_t {
  kAccessWrite = 1 << 0,
  kAccessRange = 1 << 1,  // from memcpy/memset/memmove or an odd-sized access
};

// What an interceptor does after an event was delivered. An engine that
// models a primitive itself (the controlled scheduler) may tell the
// interceptor to skip the real call and return `result` instead.
struct Verdict {
  bool skip_real = false;
  long result = 0;
};

// A plain read or write of `size` bytes at `addr` (the hot path: it must not
// take locks or allocate in the common case). A plain function rather than a
// virtual member, so the compiler hooks reach it with one indirect call.
using AccessHook = void (*)(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                            snag_site_t site);

class Engine {
 public:
  // Set by the engine in its constructor when it wants memory accesses; the
  // access hooks return after one predictable branch when it is null.
  AccessHook access_hook = nullptr;
  // Likewise for calls to members of thread-unsafe classes (kApiBegin/End):
  // they sit in the tightest loops (vector::operator[]), so engines that do
  // not use them must not pay for them.
  bool wants_api_calls = false;

  virtual const char *name() const = 0;

  // The runtime has started; `main_thread` is thread 0.
  virtual void on_start(ThreadState &main_thread) { (void)main_thread; }

  // Everything else, in program order per thread.
  virtual Verdict on_event(ThreadState &t, const Event &e) {
    (void)t, (void)e;
    return {};
  }

  // The process is exiting (exit(), return from main, or the last thread
  // ending); other threads may still be running. Called once.
  virtual void on_exit(int status) { (void)status; }

 protected:
  // Engines live for the whole process and are never deleted.
  ~Engine() = default;
};

// Creates the engine named `name` (placement in runtime memory), or returns
// null when this build has no such engine. See engine_registry.cpp.
Engine *create_engine(const char *name);

}  // namespace snag
