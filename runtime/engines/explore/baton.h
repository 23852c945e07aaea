// The baton word of a controlled thread (scheduler.h): 1 while the thread
// holds the baton, 0 while it does not, 2 while it does not and sleeps in the
// kernel waiting for it. The third state lets a hand-over skip the futex wake
// when nobody sleeps on the word: a thread that has not reached its wait yet
// (most often a new thread that has not run at all), or one preempted on its
// way to it, sees the 1 before it would sleep.
#pragma once

#include <atomic>
#include <stdint.h>

#include <linux/futex.h>
#include <sys/syscall.h>

#include "core/platform.h"

namespace snag::explore {

constexpr uint32_t kBatonAway = 0;
constexpr uint32_t kBatonHeld = 1;
constexpr uint32_t kBatonAwaitedAsleep = 2;

// Returns once `turn` is kBatonHeld: sleeps in the kernel meanwhile.
inline void wait_for_baton(std::atomic<uint32_t> &turn) {
  uint32_t seen = turn.load(std::memory_order_acquire);
  while (seen != kBatonHeld) {
    // Announce the sleep first: a hand-over that finds kBatonAway does not wake.
    if (seen == kBatonAway &&
        !turn.compare_exchange_weak(seen, kBatonAwaitedAsleep, std::memory_order_acquire))
      continue;  // `seen` is the word's value now
    raw_syscall(SYS_futex, reinterpret_cast<long>(&turn), FUTEX_WAIT_PRIVATE, kBatonAwaitedAsleep, 0);
    seen = turn.load(std::memory_order_acquire);
  }
}

// Gives `turn`'s thread the baton; wakes it only if it sleeps. Returns
// whether it made the wake call.
inline bool pass_baton(std::atomic<uint32_t> &turn) {
  if (turn.exchange(kBatonHeld, std::memory_order_acq_rel) != kBatonAwaitedAsleep) return false;
  raw_syscall(SYS_futex, reinterpret_cast<long>(&turn), FUTEX_WAKE_PRIVATE, 1);
  return true;
}

}  // namespace snag::explore
