// What `snag explore`, `snag replay` and `snag replay --shrink` share: the
// SNAG_OPTIONS of a run under the runtime's explore engine, how a finding is
// matched against the bug a replay file records, and one replay of a
// schedule.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explore_records.h"
#include "replay_file.h"
#include "report/finding.h"
#include "run_program.h"
#include "snag_options.h"

namespace snag::cli {

// engine=explore (explore+race with the race engine observing), the findings
// and explore_out files, and exitcode=0 (snag decides the exit status itself).
OptionPairs explore_engine_options(const std::string &findings, const std::string &explore_out,
                                   bool with_race);

// The environment of a run under the explore engine (explore and replay
// alike, so both lay out memory the same way): SNAG_OPTIONS, and what makes a
// forked schedule cheap: LD_BIND_NOW=1 (symbols are bound once, in the fork
// server, not again in every schedule) and a glibc thread stack cache large
// enough that joined threads' stacks are kept instead of unmapped, and one
// malloc arena for all threads (GLIBC_TUNABLES, added to the user's own
// tunables: the stack cache after them, the arena before them).
std::vector<std::string> explore_environment(const std::string &snag_options);

// Where a finding is, for telling two failures apart: "file:line:column" of
// its primary frame, "site <id>" when that frame is unresolved, "" when the
// finding has no frame.
std::string bug_location(const report::Finding &finding);

// "deadlock at /src/a.cc:12:5", or just the kind without a location.
std::string describe_bug(const std::string &kind, const std::string &location);

// The first (best-ranked) finding that is the bug: same kind, same location.
std::optional<size_t> find_bug(const std::vector<report::Finding> &findings, const ReplayBug &bug);

struct ReplayRequest {
  std::string decisions;
  bool lenient = false;  // replay_lenient=1 (shrink candidates)
  bool quiet = false;    // the program's stdin, stdout and stderr on /dev/null
  std::optional<double> timeout_seconds;
  // With a replay file's "output": where the program writes the compared
  // files (default: their names; explore's own check moves them).
  std::vector<std::string> output_paths;
};

struct ReplayOutcome {
  RunResult result;
  std::vector<report::Finding> findings;  // through the report pipeline
  ExploreRecords records;
  std::vector<std::string> warnings;
  std::optional<size_t> bug;  // index in `findings` of the recorded bug, when it reproduced
};

// Runs the program of `replay` with its arguments and options, following
// `request.decisions`. Throws UsageError when the program cannot be started.
// With `stdin_path`, a quiet run reads its stdin from that file.
ReplayOutcome replay_once(const ReplayFile &replay, const ReplayRequest &request,
                          const std::string &stdin_path = "");

}  // namespace snag::cli
