// Turns a caught conflict into a finding: the object (its type as the user
// wrote it), both operations, both threads' stacks at the moment of the
// conflict, the user's lines (docs/tsv.md, "Reading a finding").
#pragma once

#include <stddef.h>

#include "core/stack.h"
#include "engines/tsv/call_names.h"
#include "engines/tsv/object_table.h"

namespace snag::tsv {

// Reports that `current` (on `object`, with `current_stack`) was caught
// conflicting with `conflict`.
void report_violation(uintptr_t object, const Call &current, const StackTrace &current_stack,
                      const Conflict &conflict);

}  // namespace snag::tsv
