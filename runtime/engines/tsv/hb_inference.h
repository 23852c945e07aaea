// TSVD's happens-before inference from delay feedback (paper 000, 3.4.4):
// a thread that made no TSVD call for at least half a delay, across a delay
// another thread was held in, was most likely blocked by it (a lock held
// around the delayed call, a join, a condition variable), so its next few
// calls happen after the delayed one and are never worth a delay with it.
// No synchronization is modelled; the delays themselves are the probe.
#pragma once

#include <stdint.h>

#include "core/thread_state.h"
#include "snag/abi.h"

namespace snag::tsv {

// Records that `thread` starts a delay at `site`; returns its handle.
// Times are now_ms() values.
int delay_started(snag_site_t site, Tid thread, uint32_t now);
// Records that the delay `handle` ended.
void delay_ended(int handle, uint32_t now);

// The site of the most recently finished delay by another thread than
// `thread` that overlapped its silence from `since` to `now`, when that
// silence lasted at least `min_gap`; 0 if none.
snag_site_t blocking_delay(Tid thread, uint32_t since, uint32_t now, uint32_t min_gap);

}  // namespace snag::tsv
