// `snag <engine> [options] PROGRAM [ARGS...]`: run a snag-built program under
// a runtime engine and report what it found.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "command_line.h"
#include "engines.h"
#include "report/finding.h"
#include "report/run_info.h"
#include "run_program.h"
#include "snag_options.h"
#include "temp_file.h"

namespace snag::cli {

// Returns the exit status: --exitcode when something was found, otherwise
// the program's own status (128+signal when a signal ended it).
int run_engine(const Engine &engine, const Options &options);

// One run of the program under `engine`, with `extra` SNAG_OPTIONS pairs
// after the ones `options` implies and the event stream in `events` (null:
// none). Throws UsageError when the program cannot be started.
struct ProgramRun {
  RunResult result;
  report::RunInfo info;  // how it ended, with warnings and notes
  std::vector<report::Finding> findings;  // resolved, deduplicated, ranked
};
ProgramRun run_under_engine(const Engine &engine, const Options &options, const OptionPairs &extra,
                            const TempFile *events);

// What the report says about a finished run: the engine, the program and its
// arguments (`command`), how it ended, and a note for a signal or a timeout
// (`timeout_seconds` is the --timeout that was given, if any).
report::RunInfo describe_run(const std::string &engine, const std::vector<std::string> &command,
                             const RunResult &result, std::optional<double> timeout_seconds);

}  // namespace snag::cli
