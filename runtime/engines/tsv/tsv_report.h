// Turns a caught conflict into a finding: the object (its type as the user
// wrote it), both operations, both threads' stacks at the moment of the
// conflict, the user's lines (docs/tsv.md, "Reading a finding").
#pragma once

#include <stddef.h>

#include "core/stack.h"
#include "engines/tsv/object_table.h"

namespace snag::tsv {

// The object type and the operation of `call`, as the site table, the libc
// description or the annotation names them.
struct CallName {
  char object[128];
  char operation[96];
};
void name_call(const Call &call, CallName *out);

// "void Cache::put(int, int)" -> object "Cache", operation "put"; a name
// without a scope ("ledger_add") is the operation of an unnamed object.
void split_annotated_name(const char *name, CallName *out);

// Reports that `current` (on `object`, with `current_stack`) was caught
// conflicting with `conflict`.
void report_violation(uintptr_t object, const Call &current, const StackTrace &current_stack,
                      const Conflict &conflict);

}  // namespace snag::tsv
