// A 64-bit mixer (the MurmurHash3 finalizer): keys and coverage points of
// the explore engine spread over hash tables and the coverage map.
#pragma once

#include <stdint.h>

namespace snag::explore {

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

}  // namespace snag::explore
