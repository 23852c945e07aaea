#include "interp/vector_clock.h"

#include <algorithm>

namespace snag::interp {

void VectorClock::Set(ThreadId t, uint64_t v) {
  if (t >= ticks_.size()) ticks_.resize(t + 1, 0);
  ticks_[t] = v;
}

void VectorClock::Join(const VectorClock& other) {
  if (other.ticks_.size() > ticks_.size()) ticks_.resize(other.ticks_.size(), 0);
  for (size_t i = 0; i < other.ticks_.size(); ++i) ticks_[i] = std::max(ticks_[i], other.ticks_[i]);
}

bool VectorClock::LessOrEqual(const VectorClock& other) const {
  for (size_t i = 0; i < ticks_.size(); ++i)
    if (ticks_[i] > other.Get(static_cast<ThreadId>(i))) return false;
  return true;
}

}  // namespace snag::interp
