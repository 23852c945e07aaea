// `snag expose` (paper 003, Algorithm 3, docs/guard.md): which accesses a
// thread is held before so that the access that always followed them runs
// first, and the hold itself.
#pragma once

#include "core/thread_state.h"
#include "snag/abi.h"

namespace snag::guard {

// From g_bsets: every S whose BSet is one site P that S never precedes
// makes P (or the call that took the outermost lock held at P) a stall point
// waiting for S. Call once, after the invariants are loaded.
void plan_stall_points();

// Called before an access at, or a lock taken at, `point`: holds the thread
// if `point` is a stall point (see expose.cpp).
void expose_stall_point(ThreadState &t, snag_site_t point);

// Called after an access at `site`: a successor some stall point waits for
// has run.
void expose_site_ran(snag_site_t site);

}  // namespace snag::guard
