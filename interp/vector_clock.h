// Vector clocks over the interpreter's model threads (ids 0..N-1, N <= 105 by
// the limit). A clock grows on demand; a missing entry counts as 0.
// Used for happens-before between model threads: fork, join, unlock->lock.
#pragma once

#include <cstdint>
#include <vector>

namespace snag::interp {

using ThreadId = uint32_t;

class VectorClock {
 public:
  uint64_t Get(ThreadId t) const { return t < ticks_.size() ? ticks_[t] : 0; }
  void Set(ThreadId t, uint64_t v);
  // The thread's own event counter moves on (after a release).
  void Tick(ThreadId t) { Set(t, Get(t) + 1); }
  // Pointwise maximum: this thread now knows everything `other` knew (acquire).
  void Join(const VectorClock& other);
  // True when every entry of this clock is <= the same entry of `other`.
  bool LessOrEqual(const VectorClock& other) const;

 private:
  std::vector<uint64_t> ticks_;
};

}  // namespace snag::interp
