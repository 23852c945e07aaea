#include "engines/race/vector_clock.h"

#include "core/debug_assert.h"
#include "core/internal_alloc.h"
#include "core/platform.h"

namespace snag::race {

VectorClock::~VectorClock() {
  if (values_ != inline_) internal_free(values_);
}

void VectorClock::grow(uint32_t size) {
  if (size <= capacity_) {
    size_ = size > size_ ? size : size_;
    return;
  }
  uint32_t capacity = capacity_;
  while (capacity < size) capacity *= 2;
  auto *fresh = internal_new_array<Clock>(capacity);
  copy_bytes(fresh, values_, sizeof(Clock) * size_);
  if (values_ != inline_) internal_free(values_);
  values_ = fresh;
  capacity_ = capacity;
  size_ = size;
}

void VectorClock::set(Tid t, Clock c) {
  if (t >= size_) grow(t + 1);
  values_[t] = c;
}

void VectorClock::merge(const VectorClock &other) {
  if (other.size_ > size_) grow(other.size_);
  for (uint32_t i = 0; i < other.size_; ++i)
    if (other.values_[i] > values_[i]) values_[i] = other.values_[i];
  SNAG_DEBUG_ASSERT(covers(other), "a merged clock covers what it merged");
}

bool VectorClock::covers(const VectorClock &other) const {
  for (uint32_t i = 0; i < other.size_; ++i)
    if (other.values_[i] > get(i)) return false;
  return true;
}

void VectorClock::assign(const VectorClock &other) {
  if (other.size_ > size_) grow(other.size_);
  copy_bytes(values_, other.values_, sizeof(Clock) * other.size_);
  for (uint32_t i = other.size_; i < size_; ++i) values_[i] = 0;
}

}  // namespace snag::race
