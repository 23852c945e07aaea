// The scheduler's model of each synchronization object, found by address.
// Only the thread holding the baton touches it (before control starts there
// is a single thread), so it needs no lock.
#pragma once

#include <stdint.h>

#include "core/thread_state.h"

namespace snag::explore {

struct SyncObject {
  uintptr_t address = 0;
  // Mutexes, spin locks, and the writer side of reader-writer locks.
  Tid owner = kNoThread;
  uint32_t recursion = 0;
  uint32_t readers = 0;  // reader-writer locks held in read mode
  // Barriers: arrivals in the current round.
  uint32_t arrived = 0;
  uint64_t round = 0;
  // pthread_once: the thread running the initializer, or kNoThread.
  Tid once_runner = kNoThread;
  bool once_done = false;
  SyncObject *next = nullptr;
};

// The object at `address`, created (all free) on first use.
SyncObject &sync_object(uintptr_t address);
// The object at `address` if it was ever used, else null.
SyncObject *find_sync_object(uintptr_t address);

}  // namespace snag::explore
