// TSVD's trap set: pairs of call sites that nearly conflicted (dangerous:
// worth a delay), pairs whose delays showed them ordered by happens-before
// (never delayed again), and pairs where a violation was caught (not delayed
// again in this run). A site is delayed with a probability that starts at
// 100% (TSVD's reference code: a pair from the trap file is always delayed
// the first time) and loses `decay_percent` points per delay that caught
// nothing; at 0 the site is retired for the rest of the run. Lookups are lock-free; changes take one lock.
#pragma once

#include <stdint.h>

#include "snag/abi.h"

namespace snag::tsv {

// Adds {a, b} as dangerous unless the pair is already known. True if new.
bool add_dangerous_pair(snag_site_t a, snag_site_t b);

// Delays showed {a, b} ordered: it is never delayed for again. True if
// this is news (the pair was not known to be ordered or found).
bool mark_ordered(snag_site_t a, snag_site_t b);

// A violation was caught at {a, b}. False if it already was in this run.
bool mark_found(snag_site_t a, snag_site_t b);

// The chance, in per mille, that a call at `site` is delayed: 0 unless a
// dangerous pair includes it.
uint32_t delay_chance(snag_site_t site, uint32_t decay_percent);

// A delay at `site` ended without catching a conflict.
void delay_failed(snag_site_t site);

// A pair carried to the next run: dangerous and found pairs (dangerous =
// true) and ordered pairs (false). A site retired in this run because its
// partner never came during a delay keeps its pairs: the next run delays
// them again from their first occurrence, which is how a bug between calls
// that run once each, or in bursts that never overlap, is caught.
struct LastingPair {
  snag_site_t a, b;
  bool dangerous;
};

// Copies up to `max` lasting pairs into `out`; returns how many.
uint32_t copy_lasting_pairs(LastingPair *out, uint32_t max);

// Forgets everything (unit tests).
void reset_trap_set();

}  // namespace snag::tsv
