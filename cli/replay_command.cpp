#include "replay_command.h"

#include <csignal>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "decisions.h"
#include "diagnostics.h"
#include "explore_engine.h"
#include "output.h"
#include "program_check.h"
#include "replay_file.h"
#include "run_command.h"
#include "shrink.h"

namespace snag::cli {

namespace {

// The program and arguments a replay file records, as a command line.
std::vector<std::string> recorded_command(const ReplayFile &replay) {
  std::vector<std::string> command{replay.program.path};
  command.insert(command.end(), replay.arguments.begin(), replay.arguments.end());
  return command;
}

// What the run found instead of the recorded bug.
std::string what_happened(const ReplayOutcome &outcome) {
  if (outcome.findings.empty()) return "the run found nothing";
  const report::Finding &top = outcome.findings.front();
  return "the run found " + describe_bug(top.kind, bug_location(top));
}

}  // namespace

int run_replay(const Options &options) {
  Format format = parse_format(options.format);
  Destination out = report_destination(options.output, format);
  ReplayFile replay = read_replay_file(options.replay_file);
  check_snag_program(replay.program.path);
  if (options.shrink) return shrink_replay(replay, options, out, format);

  ReplayOutcome outcome = replay_once(replay, {.decisions = replay.decisions,
                                               .lenient = false,
                                               .quiet = false,
                                               .timeout_seconds = options.timeout_seconds});
  // From here on only snag writes; see run_engine.
  std::signal(SIGPIPE, SIG_IGN);

  report::RunInfo run =
      describe_run("replay", recorded_command(replay), outcome.result, options.timeout_seconds);
  run.warnings.insert(run.warnings.begin(), outcome.warnings.begin(), outcome.warnings.end());
  const auto &schedule = outcome.records.schedule;
  if (schedule && schedule->diverged) {
    // Counted from 1 for people; the runtime counts from 0.
    uint64_t k = schedule->diverged_at
                     ? *schedule->diverged_at + 1
                     : common_prefix_length(replay.decisions, schedule->decisions) + 1;
    run.notes.push_back(fmt::format(
        "the program took a different path at decision {} (nondeterminism outside the scheduler?)",
        k));
  }
  bool reproduced = outcome.bug.has_value();
  run.details = nlohmann::json::object(
      {{"replay",
        {{"replay_file", options.replay_file},
         {"bug", {{"kind", replay.bug.kind}, {"location", replay.bug.location}}},
         {"reproduced", reproduced},
         {"diverged", schedule && schedule->diverged}}}});

  present_report(out, format, options.color, outcome.findings, run);

  std::string bug = describe_bug(replay.bug.kind, replay.bug.location);
  if (reproduced) {
    print_command_note("replay", "reproduced " + bug);
    return options.exitcode;
  }
  print_command_note("replay", "did not reproduce " + bug + " (" + what_happened(outcome) + ")");
  return 1;
}

}  // namespace snag::cli
