// Synchronization variables: the vector clock that a release publishes at an
// address and an acquire of the same address takes (mutexes, condition
// variables, semaphores, barriers, once flags, static-init guards, futexes,
// atomics and annotations all meet here, keyed by address).
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/spinlock.h"
#include "engines/race/vector_clock.h"

namespace snag::race {

struct SyncVar {
  std::atomic<SyncVar *> next;
  uintptr_t addr;
  SpinLock lock;
  VectorClock clock;       // released by writers (and by every non-rwlock release)
  VectorClock read_clock;  // released by readers of a reader-writer lock
};

// The variable at `addr`; null when none exists and `create` is false.
SyncVar *sync_var(uintptr_t addr, bool create);

// Publishes `from` (a thread's clock) at `addr`.
void sync_release(uintptr_t addr, const VectorClock &from, bool reader = false);
// An atomic store: it starts a new release sequence, so what earlier
// releases published at `addr` is replaced by `from` (null: by nothing).
void sync_store(uintptr_t addr, const VectorClock *from);
// Takes what was published at `addr` into `into`; with `readers`, also what
// readers of a reader-writer lock published (a writer waits for all readers).
void sync_acquire(uintptr_t addr, VectorClock &into, bool readers = false);

// Forgets every variable in [begin, end) (the memory was freed).
void sync_forget_range(uintptr_t begin, uintptr_t end);

}  // namespace snag::race
