// Turns an anticipating-invariant violation into a finding (docs/guard.md,
// "Reading a finding"): the access about to run and its remote predecessor
// (or, when it had none, the predecessor every learned run had), both
// stacks, the pattern in paper 003's notation, and what the stall achieved.
#pragma once

#include <stdint.h>

#include "core/stack.h"
#include "engines/guard/recorder.h"

namespace snag::guard {

struct Violation {
  const char *mode = "guard";       // guard | check | expose
  uintptr_t address = 0;
  bool colored = false;             // the address is one of several variables guarded as one
  Accessor current;                 // the access about to run (thread = tid + 1)
  StackTrace current_stack;
  Accessor remote;                  // its remote predecessor; site 0: nil
  snag_site_t expected = 0;         // a learned predecessor (for the other side when remote is nil)
  snag_site_t region_end = 0;       // a learned predecessor that would have closed the region
  bool stalled = false;             // guard mode: the thread was stalled
  bool tolerated = false;           // the invariant held again before the cap
  uint32_t stalled_ms = 0;
  snag_site_t resolved_by = 0;      // the remote predecessor when the stall ended
};

// "R-R|W", "order W-R", ... from the sites' kinds (read/write).
void pattern_name(const Violation &v, char *out, uint32_t size);

void report_violation(const Violation &v);

}  // namespace snag::guard
