#include "merge_command.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "diagnostics.h"
#include "explore_engine.h"
#include "merged_shards.h"
#include "output.h"
#include "report/dedup.h"
#include "report/json_reader.h"
#include "report/rank.h"

namespace snag::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Input {
  std::string file;
  report::JsonReport report;
  std::vector<ShardRecord> shards;  // empty unless an explore report
};

std::string read_whole_file(const std::string &name) {
  std::error_code error;
  if (!fs::exists(name, error)) throw UsageError("no such file: " + name);
  if (fs::is_directory(name, error)) throw UsageError(name + " is a directory");
  std::ifstream file(name, std::ios::binary);
  if (!file) throw UsageError("cannot read " + name + ": " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw UsageError("cannot read " + name + ": " + std::strerror(errno));
  return text.str();
}

Input read_input(const std::string &name, std::vector<std::string> &warnings) {
  Input input;
  input.file = name;
  std::string error;
  std::vector<std::string> notes;
  std::optional<report::JsonReport> report = report::read_json_report(read_whole_file(name), error, notes);
  if (!report) throw UsageError(name + ": " + error + "; nothing merged");
  for (const std::string &note : notes) warnings.push_back(name + ": " + note);
  input.report = std::move(*report);
  const json &details = input.report.run.details;
  if (details.is_object() && details.contains("explore")) {
    input.shards = shard_records(details["explore"], name);
    // What an earlier merge said about its shards is said again, about all of them.
    const json &said = details["explore"].value("warnings", json::array());
    std::vector<std::string> &kept = input.report.run.warnings;
    kept.erase(std::remove_if(kept.begin(), kept.end(),
                              [&](const std::string &w) {
                                return said.is_array() &&
                                       std::find(said.begin(), said.end(), w) != said.end();
                              }),
               kept.end());
  }
  return input;
}

// The program a report is about, for telling reports of different programs
// apart across machines, where its path may differ: its file name. (Builds
// are told apart by the hash explore records, see check_one_program.)
std::string program_name(const Input &input) {
  return fs::path(input.report.run.program).filename().string();
}

// Refuses to merge reports of different programs: their findings and
// schedule counts do not add up to anything.
void check_one_program(const std::vector<Input> &inputs, std::vector<std::string> &warnings) {
  const Input *named = nullptr;
  const ShardRecord *hashed = nullptr;
  const Input *hashed_input = nullptr;
  for (const Input &input : inputs) {
    if (!input.report.run.program.empty()) {
      if (!named) named = &input;
      else if (program_name(input) != program_name(*named)) {
        throw UsageError(fmt::format("{} and {} are reports of different programs ({} and {}); "
                                     "nothing merged",
                                     named->file, input.file, program_name(*named),
                                     program_name(input)));
      } else if (input.report.run.arguments != named->report.run.arguments) {
        warnings.push_back(fmt::format("{} and {} ran {} with different arguments", named->file,
                                       input.file, program_name(input)));
      }
    }
    for (const ShardRecord &shard : input.shards) {
      if (shard.program_fnv1a64.empty()) continue;
      if (!hashed) {
        hashed = &shard;
        hashed_input = &input;
      } else if (shard.program_fnv1a64 != hashed->program_fnv1a64) {
        throw UsageError(fmt::format(
            "{} and {} are reports of different builds of {} (fnv1a64 {} and {}); nothing merged",
            hashed_input->file, input.file, program_name(input), hashed->program_fnv1a64,
            shard.program_fnv1a64));
      }
    }
  }
}

// Marks the finding that is a shard's failure with where it was found and the
// replay file that reproduces it.
void mark_failure(std::vector<report::Finding> &findings, const ShardRecord &shard) {
  const json &failure = shard.failure;
  ReplayBug bug;
  bug.kind = failure.value("kind", "");
  bug.location = failure.value("location", "");
  std::optional<size_t> found = find_bug(findings, bug);
  if (!found) return;
  report::Finding &f = findings[*found];
  if (!f.details.is_object()) f.details = json::object();
  // A merged report's finding already names the earliest of its shards.
  std::optional<uint64_t> marked = whole_number(f.details.value("schedule", json()));
  if (marked && *marked <= *shard.failure_schedule()) return;
  f.details["schedule"] = *shard.failure_schedule();
  f.details["shard"] = shard.shard();
  if (shard.replay_file.is_string()) f.details["replay_file"] = shard.replay_file;
}

// The schedule of an input's earliest failure, for putting its findings first.
uint64_t earliest_schedule(const Input &input) {
  uint64_t best = UINT64_MAX;
  for (const ShardRecord &s : input.shards)
    if (auto at = s.failure_schedule()) best = std::min(best, *at);
  return best;
}

bool counts_as_bug(const report::Finding &f) {
  return !(f.details.is_object() && f.details.value("reproducible", true) == false);
}

std::string strategy_counts(const json &per_strategy) {
  std::string out;
  for (const auto &[strategy, n] : per_strategy.items())
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", strategy, n.get<uint64_t>());
  return out;
}

void add_unique(std::vector<std::string> &to, const std::vector<std::string> &lines,
                const std::string &prefix) {
  for (const std::string &line : lines) {
    std::string text = prefix + line;
    if (std::find(to.begin(), to.end(), text) == to.end()) to.push_back(text);
  }
}

}  // namespace

int run_merge(const Options &options) {
  Format format = parse_format(options.format);
  std::vector<std::string> warnings;
  std::vector<Input> inputs;
  for (const std::string &name : options.merge_files) inputs.push_back(read_input(name, warnings));
  check_one_program(inputs, warnings);
  std::vector<ShardRecord> shards;
  json merged_files = json::array();  // in the order given
  for (const Input &input : inputs) {
    shards.insert(shards.end(), input.shards.begin(), input.shards.end());
    merged_files.push_back({{"file", input.file}, {"engine", input.report.run.engine}});
  }
  MergedShards merged = merge_shards(shards);
  warnings.insert(warnings.end(), merged.warnings.begin(), merged.warnings.end());
  // Opened once the input is known to merge: a refusal writes nothing.
  Destination out = report_destination(options.output, format);

  // The findings of the earliest failure first, so that deduplication keeps
  // the copy that names its schedule and replay file.
  std::stable_sort(inputs.begin(), inputs.end(), [](const Input &a, const Input &b) {
    return earliest_schedule(a) < earliest_schedule(b);
  });
  std::vector<report::Finding> findings;
  report::RunInfo run;
  run.engine = "merge";
  for (Input &input : inputs) {
    for (const ShardRecord &shard : input.shards)
      if (shard.failure_schedule()) mark_failure(input.report.findings, shard);
    for (report::Finding &f : input.report.findings) findings.push_back(std::move(f));
    if (run.program.empty() && !input.report.run.program.empty()) {
      run.program = input.report.run.program;
      run.arguments = input.report.run.arguments;
    }
    add_unique(run.notes, input.report.run.notes, "");
    add_unique(run.warnings, input.report.run.warnings, input.file + ": ");
  }
  run.warnings.insert(run.warnings.begin(), warnings.begin(), warnings.end());
  findings = report::dedup(std::move(findings));
  report::rank(findings);

  run.details = {{"merged", merged_files}};
  if (!shards.empty()) run.details["explore"] = merged.explore;
  present_report(out, format, options.color, findings, run);

  if (!shards.empty()) {
    const json &e = merged.explore;
    uint64_t schedules = e["schedules"].get<uint64_t>();
    std::string strategies = strategy_counts(e["per_strategy"]);
    // Stopped at --max-steps or --schedule-timeout, or a deferred thread that
    // could not be created: not bugs, but less explored.
    const json &cut = e["schedules_incomplete"];
    uint64_t incomplete = cut["steps"].get<uint64_t>() + cut["time"].get<uint64_t>() + cut.value("threads", uint64_t(0));
    print_command_note(
        "merge", fmt::format("{} report{}, {} of {} shards: {} schedule{}{}{}", inputs.size(),
                             inputs.size() == 1 ? "" : "s", e["shards_given"].size(),
                             e["shard_count"].get<unsigned>(), schedules, schedules == 1 ? "" : "s",
                             incomplete ? fmt::format(", {} incomplete", incomplete) : "",
                             strategies.empty() ? "" : " (strategies " + strategies + ")"));
    if (merged.earliest) {
      const ShardRecord &s = shards[*merged.earliest];
      std::string bug = describe_bug(s.failure.value("kind", "failure"), s.failure.value("location", ""));
      std::string replay =
          s.replay_file.is_string() ? "; replay it: snag replay " + shell_quote(s.replay_file.get<std::string>()) : "";
      print_command_note("merge", fmt::format("earliest failure: {} in schedule {} (shard {}){}", bug,
                                              *s.failure_schedule(), s.shard(), replay));
    }
  }
  bool found = std::any_of(findings.begin(), findings.end(), counts_as_bug);
  return found ? options.exitcode : 0;
}

}  // namespace snag::cli
