// Signal handlers under the controlled scheduler. A handler runs on the
// thread the kernel interrupts; if that thread is parked, waiting for the
// baton, its handler would run beside the thread that holds it and reach
// the scheduler without control. So a signal that arrives on a parked
// thread, or in the middle of the runtime, is put off: it is marked pending
// on the thread and raised again on it at the thread's next turn, when the
// handler runs like any other code of the thread. A signal pthread_kill
// sends to another controlled thread is marked pending on it directly, so
// its handler runs at the same point of every run of a schedule.
#pragma once

#include "core/engine.h"
#include "core/event.h"
#include "core/thread_state.h"
#include "engines/explore/scheduler.h"

namespace snag::explore {

// kSignalArrived on `t`: whether its handler must wait (skip_real verdict).
Verdict signal_arrived(ThreadState &t, const Event &e);

// kSignalSend from `me`: takes a signal for another controlled thread over.
Verdict signal_send(ControlledThread &me, const Event &e);

// On `me`, which holds the baton: raises the signals put off for it again,
// so their handlers run now (or stay pending in the kernel while `me`
// blocks them, as they would have).
void deliver_pending_signals(ControlledThread &me);

}  // namespace snag::explore
