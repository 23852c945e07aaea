// The table of two-lock sets. A thread holding two locks at once
// (std::scoped_lock, a transfer between two accounts) may hold hundreds of
// thousands of distinct pairs over a run, each interned for good. A pair is
// kept as the ids of its two one-lock sets (lockset.h), in 4 bytes when both
// are below 2^15 (a program with fewer than 32,768 locks; race_bench.txt
// §101), else 8, and found through an open-addressing index of 4-byte slots
// that grows with the pairs: 9 to 19 bytes a pair, and one cache line to
// look one up, where a general entry took 48 and a chain of cache misses
// (race_bench.txt §66).
// Pairs nothing names any more are retired (below, and §72): a run that
// holds 600,000 distinct pairs over its life keeps those its state words,
// histories and threads still name.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace snag::race {

constexpr uint32_t kLockPairIndexBits = 23;
constexpr uint32_t kMaxLockPairs = (1u << kLockPairIndexBits) - 1;
constexpr uint32_t kNoLockPair = ~0u;

// The index (from 0, in the order pairs were first seen) of the pair of
// one-lock sets {one, other} (two different nonzero ids, in either order);
// the pair is added the first time. kNoLockPair once kMaxLockPairs are kept.
uint32_t lock_pair_index(uint32_t one, uint32_t other);

// The two one-lock sets of the pair at `index`, the smaller id first; 0
// and 0 for a pair retired (whose index nothing should still name).
void lock_pair_members(uint32_t index, uint32_t *low, uint32_t *high);

// Retiring pairs. A finder sets bit i of `named` (one bit per pair, pairs
// [0, pairs)) for every pair i whose lockset id it finds in the memory that
// can name one (lockset_references.h), and returns the bytes it read, or
// kLockPairSearchFailed when it could not look everywhere (then nothing
// is retired); it may set more bits (a pair marked is kept). It runs under the table's lock
// and must not intern pairs. Without a finder (the default) no pair is
// ever retired.
using LockPairFinder = size_t (*)(uint32_t pairs, uint64_t *named);
constexpr size_t kLockPairSearchFailed = ~size_t(0);
void set_lock_pair_finder(LockPairFinder finder);
// A sweep runs when a pair is added after at least kMinPairsBetweenSweeps
// were added since the last, as many as it found named, and one for every
// kSweepBytesPerPair bytes it read: a search of the runtime's memory costs
// each pair added a few cache lines' reads at most. A pair no finder found
// is condemned: it still names its locks, but the index no longer finds it
// (the same two locks held together again make a new index, and
// lockset_intersect takes two indexes of the same locks for one set). Not
// found at the next sweep either, it is retired: its key is marked
// retired; found there (a thread that held it wrote it back), it is taken
// back. A retired index names no
// locks (an index a thread still held in a local names nothing) until the
// sweep after its retirement found nothing naming it either; then it may be
// given out again, so that the kept pairs' keys stay on a few pages
// (race_bench.txt section 83). That grace is three sweeps, not a proof: a
// thread stalled across all three holding the index only in a local would
// read another pair's locks for that one access.
// The interval is section 83's again (8,192 pairs, 512 bytes a pair): a
// pair nothing names holds its key for three intervals (condemned, retired,
// free), so lock_pairs' keys are ~0.2 MB lower than with section 72's
// (16,384, 256 bytes). Section 85 took it back for 4% more instructions,
// section 93 for 6-10% CPU; with the search 36% cheaper (section 93) and
// an index of the named pairs alone, half as large and rebuilt from a
// third as many (section 97), lock_pairs' CPU is no higher than with
// 16,384 before.
constexpr uint32_t kMinPairsBetweenSweeps = 1u << 13;
constexpr size_t kSweepBytesPerPair = 512;
// For tests: sweeps so far, and the pairs the index holds (not retired).
uint32_t lock_pair_sweeps();
uint32_t lock_pairs_kept();
// For tests: indexes ever given out, in both ranges of keys (lock_pairs.cpp).
uint32_t lock_pair_indexes_given();

// The index now and its slots (for its tests: it grows to keep at most
// three in four used, and no more, and gives the outgrown one's pages back).
const void *lock_pair_index_memory();
uint32_t lock_pair_index_slots();

}  // namespace snag::race
