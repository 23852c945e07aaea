// A tiny lock for the runtime's slow paths (registries, the allocator's
// refills, a synchronization variable's clock). Never used on the
// per-access fast path. It is a plain word so it can live in
// zero-initialized static storage.
//
// fork copies only the forking thread: a lock another thread held at that
// moment would stay held in the child forever, and the child would hang the
// first time it needed it (a program that forks while its threads lock and
// unlock). The runtime cannot take every lock before a fork (there is one
// per synchronization variable), so a held lock records the fork generation
// that took it, and a child, whose generation is one more, takes a lock
// still marked with an older one as free: its holder does not exist there.
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/platform.h"

namespace snag {

// Counts forks down the process tree (never 0); see fork_generation_advance.
extern std::atomic<uint16_t> g_fork_generation;

// Called first thing in a child after fork: every lock held at the fork
// becomes free there.
void fork_generation_advance();

class SpinLock {
 public:
  void lock() {
    const uint16_t mine = g_fork_generation.load(std::memory_order_relaxed);
    for (unsigned spins = 0;; ++spins) {
      // Free (0), or held by an ancestor process's thread.
      uint16_t held = state_.load(std::memory_order_relaxed);
      if (held != mine &&
          state_.compare_exchange_weak(held, mine, std::memory_order_acquire, std::memory_order_relaxed))
        return;
      if (spins > 64) yield();
    }
  }
  bool try_lock() {
    const uint16_t mine = g_fork_generation.load(std::memory_order_relaxed);
    uint16_t held = state_.load(std::memory_order_relaxed);
    return held != mine &&
           state_.compare_exchange_strong(held, mine, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock() { state_.store(0, std::memory_order_release); }
  // Whether nobody (in any process generation) holds it: for readers that
  // copy what the lock guards without taking it and check afterwards that
  // no writer was there (a sequence lock's reader).
  bool is_free(std::memory_order order) const { return state_.load(order) == 0; }

 private:
  static void yield();
  // 0: free; otherwise the fork generation of the process that holds it.
  std::atomic<uint16_t> state_{0};
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
