// `snag explore [options] PROGRAM [ARGS...]`: run the program under the
// runtime's explore engine (docs/explore.md) with -j parallel workers until
// a schedule fails, report that failure, and write a replay file for it.
#pragma once

#include "command_line.h"

namespace snag::cli {

// Returns --exitcode when a schedule failed (or anything was found),
// otherwise the program's own status.
int run_explore(const Options &options);

}  // namespace snag::cli
