// Synchronization variables: the vector clock that a release publishes at an
// address and an acquire of the same address takes (mutexes, condition
// variables, semaphores, barriers, once flags, static-init guards, futexes,
// atomics and annotations all meet here, keyed by address).
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/spinlock.h"
#include "engines/race/lockset.h"
#include "engines/race/vector_clock.h"

namespace snag::race {

struct SyncVar {
  std::atomic<SyncVar *> next;
  uintptr_t addr;
  SpinLock lock;
  VectorClock clock;       // released by writers (and by every non-rwlock release)
  VectorClock read_clock;  // released by readers of a reader-writer lock
  // The lockset holding only this lock, once a thread took it alone (0
  // until then): a thread taking one lock finds its lockset here, next to
  // the clock it acquires, without hashing into the lockset table.
  std::atomic<LocksetId> alone{kEmptyLockset};
  // Set when the memory was freed and the variable left the table: a
  // thread holding a pointer to it looks the address up again.
  std::atomic<bool> forgotten{false};
};

// The variable at `addr`; null when none exists and `create` is false.
SyncVar *sync_var(uintptr_t addr, bool create);

// The lockset {addr} (the variable's `alone`, interned the first time).
LocksetId sync_lockset_alone(SyncVar *v);

// The same as sync_release / sync_acquire below, for a variable already
// looked up (a lock a thread holds keeps its variable).
void sync_release_var(SyncVar *v, const VectorClock &from, bool reader = false);
void sync_acquire_var(SyncVar *v, VectorClock &into, bool readers = false);

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
