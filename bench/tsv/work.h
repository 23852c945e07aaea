// The work a request does besides touching the shared container: a few
// hundred nanoseconds of arithmetic the optimizer cannot remove, so that the
// workloads look like programs rather than loops of container calls.
#pragma once

#include <cstdint>

inline uint64_t work(uint64_t seed, int rounds = 64) {
  uint64_t x = seed | 1;
  for (int i = 0; i < rounds; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  asm volatile("" : "+r"(x));
  return x;
}
