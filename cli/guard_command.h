// `snag learn`, `snag guard` and `snag expose` (docs/guard.md): paper 003's
// anticipating invariants, around one invariants file.
//
//   snag learn --invariants F [--runs N] [--relax] PROGRAM [ARGS...]
//   snag guard --invariants F [--stall-ms N] [--max-stall-ms N] PROGRAM [ARGS...]
//   snag expose --invariants F [--hold-ms N] PROGRAM [ARGS...]
#pragma once

#include "command_line.h"
#include "engines.h"

namespace snag::cli {

// learn: 0 when every run was learned from, else the status of the last run
// that was refused (it exited non-zero or was killed).
// guard: the program's own status; --exitcode N instead when violations
// were reported and --exitcode was given.
// expose: --exitcode (66) when an order violation was revealed, else the
// program's status.
int run_guard_command(const Engine &engine, const Options &options);

}  // namespace snag::cli
