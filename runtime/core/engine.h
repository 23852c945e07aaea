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

class Engine {
 public:
  // Set by the engine in its constructor: whether it wants on_access at all.
  // When false the access hooks return after one predictable branch.
  bool wants_accesses = false;

  virtual const char *name() const = 0;

  // The runtime has started; `main_thread` is thread 0.
  virtual void on_start(ThreadState &main_thread) { (void)main_thread; }

  // A plain read or write of `size` bytes at `addr` (hot path: no locks, no
  // allocation in the common case).
  virtual void on_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                         snag_site_t site) {
    (void)t, (void)addr, (void)size, (void)flags, (void)site;
  }

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
