// `snag replay --shrink FILE`: fewer preemptions, same failure. Greedy, as
// docs/explore.md describes: replace one preemption `TpU` by `U` (the thread
// that was running goes on), replay the candidate leniently, and keep it when
// it fails with the same kind at the same location; from the last
// preemption to the first, pass after pass, until a whole pass removes
// nothing.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "command_line.h"
#include "output.h"
#include "replay_file.h"

namespace snag::cli {

// Replays at most, the strict ones of the original and of the result included.
inline constexpr size_t kMaxShrinkRuns = 300;

// Replays a candidate. Returns the decisions the failing run actually took
// (the runtime's `failure` record), or std::nullopt when it did not fail the
// same way.
using CandidateCheck = std::function<std::optional<std::string>(const std::string &candidate)>;

struct ShrinkResult {
  std::string decisions;
  size_t runs = 0;      // candidates tried
  bool capped = false;  // stopped by `max_runs`, not because nothing more came off
};

// The greedy search itself. A candidate counts only when the decisions its
// run took have fewer preemptions than the current ones, so every accepted
// step makes progress; a candidate rejected once is not replayed again.
ShrinkResult shrink_decisions(const std::string &decisions, const CandidateCheck &fails,
                              size_t max_runs);

// The command: checks that FILE reproduces, shrinks it, writes the result to
// --replay-out (default FILE with ".shrunk" before ".json"), reports the
// failure of the shrunk schedule and says what it did. Returns --exitcode,
// 1 when FILE does not reproduce, 128+N when signal N interrupted it.
int shrink_replay(const ReplayFile &replay, const Options &options, Destination &out,
                  Format format);

// "x.snag-replay.json" -> "x.snag-replay.shrunk.json"; "x" -> "x.shrunk".
std::string shrunk_path(const std::string &path);

}  // namespace snag::cli
