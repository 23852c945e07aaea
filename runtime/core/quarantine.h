// A FIFO that holds memory a lock-free reader may still be looking at: what
// goes in comes back out only after N more went in, by when a thread that
// found it just before it was retired has long finished with it. Used for
// the race engine's synchronization variables and its state records.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/spinlock.h"

namespace snag {

template <size_t N>
class Quarantine {
 public:
  // Puts `p` in; returns what leaves to make room (null while filling up).
  void *push(void *p) {
    SpinLockGuard guard(lock_);
    void *&slot = slots_[pushed_++ % N];
    void *released = slot;
    slot = p;
    return released;
  }
  // Puts the `n` of `in` in under one lock (a thread's batch), in order;
  // what leaves to make room goes to `out`, which has room for `n`. Returns
  // how many left.
  size_t push_all(void *const *in, size_t n, void **out) {
    SpinLockGuard guard(lock_);
    size_t released = 0;
    for (size_t i = 0; i < n; ++i) {
      void *&slot = slots_[pushed_++ % N];
      if (slot) out[released++] = slot;
      slot = in[i];
    }
    return released;
  }
  // How many were ever pushed.
  uint64_t pushed() {
    SpinLockGuard guard(lock_);
    return pushed_;
  }

 private:
  SpinLock lock_;
  void *slots_[N] = {};
  uint64_t pushed_ = 0;
};

}  // namespace snag
