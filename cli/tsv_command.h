// `snag tsv [--runs N] [--trap-file F] [--delay-ms D] PROGRAM [ARGS...]`:
// runs the program under the tsv engine N times, each run starting from the
// trap file the previous one left, and reports the violations of all runs
// together (docs/tsv.md).
#pragma once

#include "command_line.h"
#include "engines.h"

namespace snag::cli {

// Returns --exitcode when a violation was found, else the last run's status.
int run_tsv(const Engine &engine, const Options &options);

}  // namespace snag::cli
