// Start-up, the engines of this run, and the one path by which events reach
// them.
#pragma once

#include "core/engine.h"
#include "core/event.h"
#include "core/thread_state.h"
#include "snag/abi.h"

namespace snag {

// The engines of this run, observers first and the leading engine last, so
// that observers see an event before the leader acts on it (the controlled
// scheduler may block the thread or end the process there). Empty until
// start-up has chosen them; never more than kMaxEngines.
constexpr int kMaxEngines = 4;
extern Engine *g_engines[kMaxEngines];
extern int g_engine_count;
// What the compiler hooks call for a memory access: the one engine's hook
// when one engine wants accesses, a dispatcher when several do, else null.
extern AccessHook g_access_hook;
// Whether some engine wants kApiBegin/kApiEnd, and what the compiler's API
// hooks call (null when no engine wants them): the engine's own hook, or a
// dispatcher that emits events.
extern bool g_wants_api_calls;
extern ApiHook g_api_begin_hook;
extern ApiHook g_api_end_hook;
// What the compiler's atomic hooks call instead of emit: the engine's
// atomic_hook when it is the only engine of the run, else null.
extern EventHook g_atomic_hook;
// What the heap interceptors call instead of emit for kAlloc and kFree: the
// engine's heap_hook when it is the only engine of the run, else null.
extern EventHook g_heap_hook;
// What the lock and condition-variable interceptors call instead of emit:
// the engine's sync_hook when it is the only engine of the run, else null.
extern EventHook g_sync_hook;
// How many times the pthread_mutex_lock interceptor tries a held mutex
// before the real lock sleeps (the mutex_spin option; 0 with one CPU).
extern uint32_t g_mutex_spin;
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

// The engine leading the run (the first one named in engine=), or null.
Engine *leading_engine();

// Recomputes g_access_hook and g_wants_api_calls after an engine changed its
// access_hook or wants_api_calls.
void update_engine_hooks();

// Delivers an event from thread `t` to every engine; returns the leading
// engine's verdict.
Verdict emit(ThreadState *t, const Event &e);

// emit for the lock and condition-variable interceptors: straight to the
// one engine's sync_hook when it has one (no runtime scope, loop or
// virtual call here: the hook enters its own scope), which never skips.
SNAG_ALWAYS_INLINE Verdict emit_sync(ThreadState *t, const Event &e) {
  if (EventHook hook = g_sync_hook) {
    hook(*t, e);
    return {};
  }
  return emit(t, e);
}

// Thread `ended` was joined or is gone, and its event was emitted: every
// engine forgets it (Engine::forget_thread), then its record is retired.
void retire_thread(ThreadState *t, ThreadState *ended);

// The site of the instrumented call that led into the current interceptor.
// Inline (a thread-local load): every intercepted malloc and free asks it.
SNAG_ALWAYS_INLINE snag_site_t caller_site() { return __snag_call_site; }

// Remembers the status passed to exit() for the exit event.
void note_exit_status(int status);

// Process exit: tells the engines once, prints the standalone summary, and
// returns the status the process should exit with.
int finish_process(int status);

}  // namespace snag
