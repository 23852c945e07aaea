// Vector clocks (RaceTrack's B_t, and the clocks that synchronization
// objects carry from a release to an acquire). A clock maps logical thread
// ids to clock values; missing entries are 0.
#pragma once

#include <stdint.h>

#include "core/thread_state.h"

namespace snag::race {

using Clock = uint32_t;

class VectorClock {
 public:
  VectorClock() : values_(inline_), capacity_(kInline) {}
  ~VectorClock();
  VectorClock(const VectorClock &) = delete;
  VectorClock &operator=(const VectorClock &) = delete;

  Clock get(Tid t) const { return t < size_ ? values_[t] : 0; }
  void set(Tid t, Clock c);
  void tick(Tid t) { set(t, get(t) + 1); }
  // this = max(this, other), element-wise.
  void merge(const VectorClock &other);
  void assign(const VectorClock &other);
  // True when every entry of `other` is at most this clock's entry: all
  // that `other` saw happened before (or is) what this clock has seen.
  bool covers(const VectorClock &other) const;
  uint32_t size() const { return size_; }
  // The entries, size() of them (for a synchronization variable's clock,
  // sync_vars.h, which keeps them in a form of its own).
  const Clock *data() const { return values_; }
  // this = max(this, values[0..n)), element-wise.
  void merge(const Clock *values, uint32_t n) {
    if (n > size_) grow(n);
    for (uint32_t i = 0; i < n; ++i)
      if (values[i] > values_[i]) values_[i] = values[i];
  }

 private:
  void grow(uint32_t size);
  // A program with a few threads keeps its clocks inline: a lock's clock
  // sits next to the lock's other fields, and an acquire or release does
  // not chase a pointer into another cache line.
  static constexpr uint32_t kInline = 8;
  Clock *values_;
  uint32_t size_ = 0;
  uint32_t capacity_;
  Clock inline_[kInline] = {};
};

}  // namespace snag::race
