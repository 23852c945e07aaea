#include "shrink.h"

#include <algorithm>
#include <csignal>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "decisions.h"
#include "diagnostics.h"
#include "explore_engine.h"
#include "run_command.h"

namespace snag::cli {

namespace {

// Ctrl-C during a replay reaches the program, not snag; when the run shows
// it was passed on, the user wants the whole shrink to stop.
struct Interrupted {
  int signal;
};

}  // namespace

ShrinkResult shrink_decisions(const std::string &decisions, const CandidateCheck &fails,
                              size_t max_runs) {
  ShrinkResult result{decisions, 0, false};
  // A later pass often meets a candidate an earlier one already tried;
  // replays are deterministic, so its answer would be the same.
  std::set<std::string> rejected;
  bool removed = true;
  while (removed) {
    removed = false;
    for (size_t k = count_preemptions(result.decisions); k-- > 0;) {
      std::string candidate = remove_preemption(result.decisions, k);
      if (rejected.contains(candidate)) continue;
      if (result.runs == max_runs) {
        result.capped = true;
        return result;
      }
      ++result.runs;
      std::optional<std::string> failed = fails(candidate);
      if (!failed || count_preemptions(*failed) >= count_preemptions(result.decisions)) {
        rejected.insert(candidate);
        continue;
      }
      result.decisions = *failed;
      removed = true;
      // Go on with the preemption before k; the run may have taken fewer.
      k = std::min(k, count_preemptions(result.decisions));
    }
  }
  return result;
}

std::string shrunk_path(const std::string &path) {
  constexpr std::string_view kJson = ".json";
  if (path.ends_with(kJson)) return path.substr(0, path.size() - kJson.size()) + ".shrunk.json";
  return path + ".shrunk";
}

int shrink_replay(const ReplayFile &replay, const Options &options, Destination &out,
                  Format format) {
  std::string out_path =
      options.replay_out.empty() ? shrunk_path(options.replay_file) : options.replay_out;
  size_t runs = 0;
  // The program's own output, hundreds of times over, would bury ours.
  auto replay_quietly = [&](const std::string &decisions, bool lenient) {
    ++runs;
    ReplayOutcome outcome = replay_once(replay, {.decisions = decisions,
                                                 .lenient = lenient,
                                                 .quiet = true,
                                                 .timeout_seconds = options.timeout_seconds});
    if (outcome.result.forwarded_signal != 0) throw Interrupted{outcome.result.forwarded_signal};
    return outcome;
  };
  std::vector<std::string> command{replay.program.path};
  command.insert(command.end(), replay.arguments.begin(), replay.arguments.end());
  std::string bug = describe_bug(replay.bug.kind, replay.bug.location);
  size_t before = count_preemptions(replay.decisions);

  try {
    // Shrinking a schedule that does not fail would keep nothing.
    ReplayOutcome last = replay_quietly(replay.decisions, false);
    if (!last.bug) {
      std::signal(SIGPIPE, SIG_IGN);
      for (const std::string &warning : last.warnings) print_warning(warning);
      print_command_note("replay", fmt::format("{} does not reproduce {}; nothing to shrink",
                                               options.replay_file, bug));
      return 1;
    }

    CandidateCheck fails = [&](const std::string &candidate) -> std::optional<std::string> {
      ReplayOutcome outcome = replay_quietly(candidate, true);
      if (!outcome.bug) return std::nullopt;
      return outcome.records.failure ? outcome.records.failure->decisions : candidate;
    };
    // Two runs of the budget go to the strict replays before and after.
    ShrinkResult shrunk = shrink_decisions(replay.decisions, fails, kMaxShrinkRuns - 2);

    std::vector<std::string> warnings;
    if (shrunk.decisions != replay.decisions) {
      // The accepted decisions came from lenient runs; make sure the file we
      // write fails when replayed as `snag replay` will replay it.
      last = replay_quietly(shrunk.decisions, false);
      if (!last.bug) {
        warnings.push_back("the shrunk schedule did not reproduce " + bug +
                           " when replayed strictly (nondeterminism outside the scheduler?)");
      }
    }
    std::signal(SIGPIPE, SIG_IGN);  // from here on only snag writes

    ReplayFile result = replay;
    result.decisions = shrunk.decisions;
    result.preemptions = count_preemptions(shrunk.decisions);
    write_replay_file(out_path, result);

    report::RunInfo run = describe_run("replay", command, last.result, options.timeout_seconds);
    run.warnings = last.warnings;
    run.warnings.insert(run.warnings.end(), warnings.begin(), warnings.end());
    if (shrunk.capped) {
      run.notes.push_back(
          fmt::format("stopped after {} runs; shrinking the result again may remove more", runs));
    }
    run.details = nlohmann::json::object({{"shrink",
                                           {{"replay_file", options.replay_file},
                                            {"shrunk_file", out_path},
                                            {"preemptions_before", before},
                                            {"preemptions_after", result.preemptions},
                                            {"runs", runs}}}});
    present_report(out, format, options.color, last.findings, run);
    print_command_note(
        "replay",
        fmt::format("shrunk from {} to {} preemptions ({} runs); replay it: snag replay {}", before,
                    result.preemptions, runs, shell_quote(out_path)));
    return options.exitcode;
  } catch (const Interrupted &interrupted) {
    std::signal(SIGPIPE, SIG_IGN);
    print_command_note("replay", fmt::format("interrupted by {} after {} runs; nothing written",
                                             describe_signal(interrupted.signal), runs));
    return 128 + interrupted.signal;
  }
}

}  // namespace snag::cli
