// A tiny lock for the runtime's slow paths (registries, the allocator's
// refills). Never used on the per-access fast path. It is a plain word so it
// can live in zero-initialized static storage and be reset after fork.
#pragma once

#include <atomic>

#include "core/platform.h"

namespace snag {

class SpinLock {
 public:
  void lock() {
    for (unsigned spins = 0;; ++spins) {
      if (!state_.load(std::memory_order_relaxed) &&
          !state_.exchange(true, std::memory_order_acquire))
        return;
      if (spins > 64) yield();
    }
  }
  bool try_lock() { return !state_.exchange(true, std::memory_order_acquire); }
  void unlock() { state_.store(false, std::memory_order_release); }
  // After fork only the forking thread survives; whoever held the lock is gone.
  void reset_after_fork() { state_.store(false, std::memory_order_relaxed); }

 private:
  static void yield();
  std::atomic<bool> state_{false};
};

class SpinLockGuard {
 public:
  explicit SpinLockGuard(SpinLock &lock) : lock_(lock) { lock_.lock(); }
  ~SpinLockGuard() { lock_.unlock(); }
  SpinLockGuard(const SpinLockGuard &) = delete;
  SpinLockGuard &operator=(const SpinLockGuard &) = delete;

 private:
  SpinLock &lock_;
};

}  // namespace snag
