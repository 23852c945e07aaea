// Parsing `snag <engine> [options] PROGRAM [ARGS...]` and
// `snag report [options] FILE.jsonl`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines.h"

namespace snag::cli {

struct Options {
  // Common to every engine.
  std::string format = "text";  // text | json | sarif
  std::string output;           // --output FILE; empty: the format's default stream
  int exitcode = 66;            // status when something was found
  bool exitcode_set = false;    // --exitcode was given (guard keeps the program's status otherwise)
  std::string color = "auto";   // auto | always | never

  // Engines that run a program.
  std::optional<uint64_t> seed;
  std::optional<double> timeout_seconds;
  std::string keep_findings;          // --keep-findings FILE
  std::vector<std::string> command;   // PROGRAM and its arguments, untouched

  // `snag race`.
  std::string suppressions;  // --suppressions FILE (ThreadSanitizer's syntax)
  bool halt_on_error = false;
  bool potential = false;  // --potential: also lockset-only (potential) races

  // `snag explore` (docs/explore.md).
  std::string strategy = "portfolio";
  uint64_t schedules = 1000;                       // in all, divided among the workers
  std::optional<double> time_limit_seconds;        // --time-limit, per worker
  unsigned jobs = 0;                               // -j: parallel workers (0: explore's default, check's 1)
  unsigned shard_index = 0, shard_count = 1;       // --shard I/N
  bool preempt_on_access = false;
  bool eager_threads = false;  // --eager-threads: kernel threads at pthread_create, not first turn
  std::optional<uint64_t> pct_depth;
  uint64_t max_steps = 200000;                     // recorded in the replay file, so always set
  static constexpr double kDefaultReplayTimeout = 60;  // snag replay without --timeout
  std::optional<double> schedule_timeout_seconds;
  bool with_race = false;
  bool no_race_points = false;  // --no-race-points: no race pass before exploring
  // A failure whose replay does not reproduce it still counts (exit status).
  bool count_unreproducible = false;
  // --compare-output / --compare-file: a schedule whose output differs from
  // schedule 0's is a finding (cli/output_compare.h).
  bool compare_output = false;
  std::vector<std::string> compare_files;
  std::string replay_out;  // --replay-out FILE (explore, and replay --shrink)

  // `snag tsv` (docs/tsv.md).
  uint64_t runs = 1;                   // --runs N
  std::string trap_file;               // --trap-file F; empty: next to the program
  std::optional<uint64_t> delay_ms;    // --delay-ms D

  // `snag check` (docs/check.md).
  std::vector<std::string> check_files;     // FILE...: one program; with -p, the TUs to check
  std::vector<std::string> compiler_flags;  // after "--"
  std::string build_dir;                    // -p BUILD_DIR: its compile_commands.json
  std::string cache_dir;                    // --cache-dir; empty: $XDG_CACHE_HOME/snag/check
  bool no_cache = false;
  bool verbose = false;
  uint64_t check_max_steps = 10'000'000;    // --max-steps: the interpreter's budget per target
  // `snag learn` / `snag guard` / `snag expose` (docs/guard.md); --runs too.
  std::string invariants;                  // --invariants F
  bool relax = false;                      // learn --relax
  std::optional<uint64_t> stall_ms;        // guard --stall-ms
  std::optional<uint64_t> max_stall_ms;    // guard --max-stall-ms
  std::optional<uint64_t> hold_ms;         // expose --hold-ms

  // `snag replay`.
  std::string replay_file;
  bool shrink = false;

  // `snag report`.
  std::string findings_file;
  std::string program_for_sites;  // --program BIN

  // `snag merge`.
  std::vector<std::string> merge_files;  // FILE...: --format json reports
};

struct CommandLine {
  const Engine *engine = nullptr;
  Options options;
};

// Parses the whole command line. Prints help or the version itself and
// returns std::nullopt for them; throws UsageError for every mistake.
std::optional<CommandLine> parse_command_line(int argc, const char *const *argv);

}  // namespace snag::cli
