// Start-up, the active engine, and the one path by which events reach it.
#pragma once

#include "core/engine.h"
#include "core/event.h"
#include "core/thread_state.h"

namespace snag {

// The active engine; a do-nothing engine until start-up has chosen one.
extern Engine *g_engine;
// The active engine's access hook (null when it wants no accesses).
extern AccessHook g_access_hook;
// True once the runtime has started and until the process exits.
extern bool g_started;

// Starts the runtime if it has not started yet (normally from .preinit_array,
// before any constructor of the program).
void ensure_started();

// The state of the calling thread if an interceptor should observe this call,
// or null when the call must pass straight through: before start-up, and
// while the runtime itself is working on this thread.
SNAG_ALWAYS_INLINE ThreadState *observing_thread() {
  if (SNAG_UNLIKELY(!g_started)) return nullptr;
  ThreadState *t = current_thread();
  return t->in_runtime ? nullptr : t;
}

// Delivers an event from thread `t` to the engine.
Verdict emit(ThreadState *t, const Event &e);

// The site of the instrumented call that led into the current interceptor.
snag_site_t caller_site();

// Remembers the status passed to exit() for the exit event.
void note_exit_status(int status);

// Process exit: tells the engine once, prints the standalone summary, and
// returns the status the process should exit with.
int finish_process(int status);

}  // namespace snag
