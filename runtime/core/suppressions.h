// Suppressions in ThreadSanitizer's file syntax, so an existing
// suppressions file keeps working:
//
//   # comment
//   race:Foo::Bar          a data race with Foo::Bar in any frame of any side
//   race_top:hot_loop      ... in the innermost frame of a side
//   called_from_lib:libz   any frame from a library whose path contains libz
//   thread:worker          a thread named so (pthread_setname_np) is involved
//
// Patterns match as substrings of a function name, file path or global
// name; `*` matches anything, `^` anchors at the start and `$` at the end.
// Other engines use their finding kind as the type (`deadlock:`, ...).
#pragma once

#include "core/findings.h"

namespace snag {

// Loads the file named by SNAG_OPTIONS suppressions=FILE, if any. A missing
// or malformed file is reported once and ignored line by line.
void suppressions_init();

// True when `f` matches a suppression.
bool is_suppressed(const Finding &f);

}  // namespace snag
