// Where a remembered access was made, in 4 bytes: its site and the stack
// id of its calling context, interned as a pair. A history entry keeps
// this id (History::stack) instead of an 8-byte site next to a 4-byte
// context. Interning the full stack with the site on top would do too, but
// each distinct (site, context) then became a stack of the depot, whose
// fixed bucket table a small program touched page by page (pipeline: 250 KB
// more at peak); a pair costs 16 bytes here, and memory grows with the
// pairs seen.
#pragma once

#include <stdint.h>

#include "core/stack.h"

namespace snag::race {

// The id of (site, context), made on first use; never 0 (0: nothing
// recorded). Ids stay valid for the life of the process.
uint32_t intern_access_stack(snag_site_t site, StackId context);

// The site and calling context of an id intern_access_stack gave.
void access_stack_of(uint32_t id, snag_site_t *site, StackId *context);

// The whole stack of an id: its site on top of its calling context.
void access_stack_trace(uint32_t id, StackTrace *out);

}  // namespace snag::race
