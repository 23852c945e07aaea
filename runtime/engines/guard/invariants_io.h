// The guard engine's side of the invariants file (docs/guard.md): reading
// BSets and lock facts into g_bsets at start-up, and writing what a learning
// run saw to learn_out at exit for `snag learn` to merge.
#pragma once

namespace snag::guard {

// Loads `path` into g_bsets. A file that cannot be read or is malformed is
// reported in one line on stderr (guard adds that the program runs
// unguarded) and false is returned.
bool load_invariants(const char *path);

// Writes g_learned and g_edges to learn_out (only in the process that
// started the run: a forked child leaves the file to its parent).
void write_learned();

}  // namespace snag::guard
