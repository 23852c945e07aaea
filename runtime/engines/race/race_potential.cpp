// Potential races (potential=1, `snag race --potential`): the lockset half of
// RaceTrack reporting what the happens-before half let pass.
//
// snag orders an unlock before the next lock of the same mutex (race_engine.h
// says why), so two accesses that hold no common lock are not a race when one
// thread happened to take some lock after the other released it. Which thread
// takes a lock first is up to the scheduler: in another run the order flips
// and the accesses meet. RaceTrack's own clock has no lock edges; an access
// that is ordered after a remembered conflicting access by B_t, but not by
// that clock, and shares no lock with it, is reported as a potential race:
// ranked below every real race, titled "potential data race", and never
// stopping the variable's tracking, so a real race on it is still reported.
//
// The lockless clock follows every synchronization except locks: thread
// creation and join, condition variables, semaphores, barriers, once, static
// guards, futexes, release/acquire atomics, annotations and descriptors. Its
// synchronization variables sit at the object's address with bit 62 set, an
// address no program object has. Relaxed atomics ordered by fences are not
// followed, so a hand-off through them can be reported as potential.
#include "engines/race/race_engine.h"
#include "engines/race/sync_vars.h"

namespace snag::race {

namespace {

constexpr uintptr_t kLocklessBit = uintptr_t(1) << 62;

uintptr_t lockless_address(uintptr_t addr) { return addr | kLocklessBit; }

bool bytes_overlap(const History &h, uintptr_t base, const Access &a) {
  uintptr_t h_lo = base + h.offset, h_hi = h_lo + h.size;
  return a.addr < h_hi && h_lo < a.addr + a.size;
}

}  // namespace

void RaceEngine::lockless_release(RaceThread &rt, Tid self, uintptr_t addr) {
  rt.lockless.set(self, rt.now);
  sync_release(lockless_address(addr), rt.lockless);
}

void RaceEngine::lockless_store(RaceThread &rt, Tid self, uintptr_t addr, bool release) {
  rt.lockless.set(self, rt.now);
  sync_store(lockless_address(addr), release ? &rt.lockless : nullptr);
}

void RaceEngine::lockless_acquire(RaceThread &rt, uintptr_t addr) {
  sync_acquire(lockless_address(addr), rt.lockless);
}

void RaceEngine::check_potential(ThreadState &t, RaceThread &rt, const Variable &v, const Access &a) {
  const LocksetId held = a.write ? rt.lockset_write : rt.lockset_all;
  auto only_lock_ordered = [&](const History &h) {
    return h.stack != 0 && h.thread != rt.slot && bytes_overlap(h, v.extent_base(), a) &&
           h.clock <= rt.clock.get(h.thread) && h.clock > rt.lockless.get(h.thread) &&
           lockset_intersect(h.lockset, held) == kEmptyLockset;
  };
  const Histories &hs = *v.history;
  const History *previous = nullptr;
  if (only_lock_ordered(hs.write)) previous = &hs.write;
  else if (a.write && only_lock_ordered(hs.read)) previous = &hs.read;
  else if (a.write && only_lock_ordered(hs.other_read)) previous = &hs.other_read;
  if (previous) report(t, rt, v, *previous, a, kPotentialState);
}

}  // namespace snag::race
