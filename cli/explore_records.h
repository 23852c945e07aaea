// Reading the records the runtime's explore engine appends to `explore_out`
// (JSON lines, docs/explore.md): the first failing schedule, the end of an
// unforked run, and the summary of the process that explored.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace snag::cli {

// One schedule: the failing one ("failure") or the end of an unforked run
// ("schedule"); the runtime writes both with the same fields.
struct ScheduleRecord {
  uint64_t schedule = 0;
  std::string strategy;
  uint64_t seed = 0;
  std::string kind;
  std::string message;
  uint64_t steps = 0;
  uint64_t preemptions = 0;
  // The scheduling points the schedule ran with ("sync", "accesses" or
  // "vars/K1,K2"); a replay needs the same ones. Empty when not written.
  std::string points;
  bool truncated = false;  // more decisions than the runtime keeps; `decisions` is a prefix
  bool diverged = false;
  std::optional<uint64_t> diverged_at;  // the first impossible choice, counted from 0
  std::string decisions;
};

// Schedules stopped before the program ended, without a bug, by why.
struct IncompleteSchedules {
  uint64_t steps = 0;    // at the step limit (not a livelock)
  uint64_t time = 0;     // at the schedule timeout
  uint64_t threads = 0;  // a deferred thread could not be created (lazy threads)
  uint64_t total() const { return steps + time + threads; }
  IncompleteSchedules &operator+=(const IncompleteSchedules &o) {
    steps += o.steps;
    time += o.time;
    threads += o.threads;
    return *this;
  }
};
// {"steps": N, "time": N}, and "threads" only when some were: readers that
// know steps and time alone (older `snag merge`) still read it.
inline nlohmann::json incomplete_json(const IncompleteSchedules &incomplete) {
  nlohmann::json j = {{"steps", incomplete.steps}, {"time", incomplete.time}};
  if (incomplete.threads) j["threads"] = incomplete.threads;
  return j;
}

struct SummaryRecord {
  uint64_t schedules = 0;
  double seconds = 0;
  uint64_t failures = 0;
  IncompleteSchedules incomplete;
  std::map<std::string, uint64_t> per_strategy;
  uint64_t threads = 0;
  bool forked = false;
  std::vector<std::string> notes;
};

// The first record of each type. Missing fields keep their defaults, except
// that a failure needs `kind` and `decisions` to count.
struct ExploreRecords {
  std::optional<ScheduleRecord> failure;
  std::optional<ScheduleRecord> schedule;
  std::optional<SummaryRecord> summary;
  // After an output-mismatch failure (--compare-output): the reference's
  // hashes and the first difference, as the runtime wrote them.
  std::optional<nlohmann::json> output;
};

// Lines that are not JSON objects (a half-written last line of a process
// that was stopped) and records of unknown types are skipped; with
// `warnings`, the bad lines are reported there as "<source>: line N: ...".
ExploreRecords read_explore_records(std::istream &in, const std::string &source,
                                    std::vector<std::string> *warnings);

// The same for a file; a missing or empty file has no records.
ExploreRecords read_explore_records_file(const std::string &path, const std::string &source,
                                         std::vector<std::string> *warnings);

}  // namespace snag::cli
