// `snag <engine> [options] PROGRAM [ARGS...]`: run a snag-built program under
// a runtime engine and report what it found.
#pragma once

#include "command_line.h"
#include "engines.h"

namespace snag::cli {

// Returns the exit status: --exitcode when something was found, otherwise
// the program's own status (128+signal when a signal ended it).
int run_engine(const Engine &engine, const Options &options);

}  // namespace snag::cli
