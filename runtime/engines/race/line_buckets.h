// The bucket of a table keyed by address (the synchronization variables',
// the one-lock sets') that keeps the program's locality. Hashing each
// address put a few locks or atomics on every page of a table, so an array
// of 4,096 objects with a mutex each kept whole tables resident
// (lock_hash_map). Here consecutive 64-byte lines of a window of as many
// lines as the table has buckets take consecutive buckets, from a place a
// hash of the window's number chooses: such an array uses a run of
// adjacent buckets, a few pages.
#pragma once

#include <stdint.h>

namespace snag::race {

// Addresses of one line share a bucket.
constexpr int kBucketLineBits = 6;

template <int kBucketBits>
inline uint32_t line_bucket(uintptr_t addr) {
  static_assert(kBucketBits > 0 && kBucketBits < 32, "a table of 2^kBucketBits buckets");
  const uint64_t line = addr >> kBucketLineBits;
  const uint64_t window = line >> kBucketBits;
  const uint64_t window_start = (window * 0x9e3779b97f4a7c15ull) >> (64 - kBucketBits);
  return static_cast<uint32_t>((line + window_start) & ((uint64_t(1) << kBucketBits) - 1));
}

}  // namespace snag::race
