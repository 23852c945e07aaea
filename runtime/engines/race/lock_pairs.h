// The table of two-lock sets. A thread holding two locks at once
// (std::scoped_lock, a transfer between two accounts) may hold hundreds of
// thousands of distinct pairs over a run, each interned for good. A pair is
// kept as the ids of its two one-lock sets (lockset.h), 8 bytes, and found
// through an open-addressing index of 4-byte slots that grows with the
// pairs: 13 to 19 bytes a pair, and one cache line to look one up, where a
// general entry took 48 and a chain of cache misses (race_bench.txt §66).
#pragma once

#include <stdint.h>

namespace snag::race {

constexpr uint32_t kLockPairIndexBits = 23;
constexpr uint32_t kMaxLockPairs = (1u << kLockPairIndexBits) - 1;
constexpr uint32_t kNoLockPair = ~0u;

// The index (from 0, in the order pairs were first seen) of the pair of
// one-lock sets {one, other} (two different nonzero ids, in either order);
// the pair is added the first time. kNoLockPair once kMaxLockPairs are kept.
uint32_t lock_pair_index(uint32_t one, uint32_t other);

// The two one-lock sets of the pair at `index`, the smaller id first.
void lock_pair_members(uint32_t index, uint32_t *low, uint32_t *high);

// The index now and its slots (for its tests: it grows to keep at most
// three in four used, and no more, and gives the outgrown one's pages back).
const void *lock_pair_index_memory();
uint32_t lock_pair_index_slots();

}  // namespace snag::race
