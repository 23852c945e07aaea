// How a TSVD point is named in reports: the object's type as the user
// writes it and the operation, from the site table's A line, the libc
// call's description or the annotation.
#pragma once

#include "engines/tsv/object_table.h"

namespace snag::tsv {

// The object type and the operation of `call`, as the site table, the libc
// description or the annotation names them.
struct CallName {
  char object[128];
  char operation[96];
};
void name_call(const Call &call, CallName *out);

// "void Cache::put(int, int)" (a C++ member's __PRETTY_FUNCTION__) ->
// object "Cache", operation "put". Returns false for a name that is not a
// function's ("struct symtab", a C annotation's type name).
bool split_annotated_name(const char *name, CallName *out);

}  // namespace snag::tsv
