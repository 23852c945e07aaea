#include "core/event.h"

namespace snag {

const char *event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::kThreadCreate: return "thread-create";
    case EventKind::kThreadStart: return "thread-start";
    case EventKind::kThreadExit: return "thread-exit";
    case EventKind::kThreadCreated: return "thread-created";
    case EventKind::kThreadJoinBefore: return "thread-join-before";
    case EventKind::kThreadJoin: return "thread-join";
    case EventKind::kThreadDetach: return "thread-detach";
    case EventKind::kThreadGone: return "thread-gone";
    case EventKind::kLockCreate: return "lock-create";
    case EventKind::kLockDestroy: return "lock-destroy";
    case EventKind::kLockBefore: return "lock-before";
    case EventKind::kLockAcquired: return "lock-acquired";
    case EventKind::kLockFailed: return "lock-failed";
    case EventKind::kUnlock: return "unlock";
    case EventKind::kCondWait: return "cond-wait";
    case EventKind::kCondWoken: return "cond-woken";
    case EventKind::kCondSignal: return "cond-signal";
    case EventKind::kCondBroadcast: return "cond-broadcast";
    case EventKind::kBarrierWait: return "barrier-wait";
    case EventKind::kBarrierPassed: return "barrier-passed";
    case EventKind::kSemPost: return "sem-post";
    case EventKind::kSemWait: return "sem-wait";
    case EventKind::kSemAcquired: return "sem-acquired";
    case EventKind::kSemFailed: return "sem-failed";
    case EventKind::kOnceEnter: return "once-enter";
    case EventKind::kOnceInitDone: return "once-init-done";
    case EventKind::kOnceExit: return "once-exit";
    case EventKind::kGuardAcquired: return "guard-acquired";
    case EventKind::kGuardReleased: return "guard-released";
    case EventKind::kGuardAborted: return "guard-aborted";
    case EventKind::kFutexWait: return "futex-wait";
    case EventKind::kFutexWoken: return "futex-woken";
    case EventKind::kFutexWake: return "futex-wake";
    case EventKind::kAtomicBefore: return "atomic-before";
    case EventKind::kAtomicAfter: return "atomic-after";
    case EventKind::kFence: return "fence";
    case EventKind::kAlloc: return "alloc";
    case EventKind::kFree: return "free";
    case EventKind::kApiBegin: return "api-begin";
    case EventKind::kApiEnd: return "api-end";
    case EventKind::kAnnotateHappensBefore: return "annotate-happens-before";
    case EventKind::kAnnotateHappensAfter: return "annotate-happens-after";
    case EventKind::kAnnotateBenignRace: return "annotate-benign-race";
    case EventKind::kFdSend: return "fd-send";
    case EventKind::kFdReceive: return "fd-receive";
    case EventKind::kMemoryFresh: return "memory-fresh";
    case EventKind::kForkBefore: return "fork-before";
    case EventKind::kForkParent: return "fork-parent";
    case EventKind::kForkChild: return "fork-child";
    case EventKind::kSleep: return "sleep";
    case EventKind::kYield: return "yield";
    case EventKind::kExitCall: return "exit-call";
    case EventKind::kProgramExit: return "program-exit";
    case EventKind::kAssertFailure: return "assert-failure";
    case EventKind::kBlockingCall: return "blocking-call";
    case EventKind::kSignalSend: return "signal-send";
    case EventKind::kSignalArrived: return "signal-arrived";
    case EventKind::kCount: break;
  }
  return "unknown";
}

}  // namespace snag
