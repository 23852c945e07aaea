#include "merged_shards.h"

#include <charconv>
#include <set>

#include <fmt/format.h>

#include "diagnostics.h"

namespace snag::cli {

using nlohmann::json;

namespace {

// A member of an "explore" object, checked: a report may have been edited.
class Reader {
 public:
  Reader(const json &object, std::string file, std::string path)
      : object_(object), file_(std::move(file)), path_(std::move(path)) {}

  const json *member(const char *key, bool (json::*is_type)() const noexcept,
                     const char *type) const {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return nullptr;
    if (!((*it).*is_type)()) {
      throw UsageError(fmt::format("{}: \"{}.{}\" is not {}", file_, path_, key, type));
    }
    return &*it;
  }
  uint64_t count(const char *key) const {
    const json *v = member(key, &json::is_number_integer, "a whole number");
    if (v && !whole_number(*v)) {
      throw UsageError(fmt::format("{}: \"{}.{}\" is negative", file_, path_, key));
    }
    return v ? *whole_number(*v) : 0;
  }
  std::string text(const char *key) const {
    const json *v = member(key, &json::is_string, "a string");
    return v ? v->get<std::string>() : "";
  }

 private:
  const json &object_;
  std::string file_;
  std::string path_;  // of the object in the report, for messages
};

// "I/N" with I < N, as --shard takes it.
bool parse_shard(const std::string &text, unsigned &index, unsigned &count) {
  size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  const char *begin = text.data(), *middle = begin + slash, *end = begin + text.size();
  auto [i_end, i_error] = std::from_chars(begin, middle, index);
  auto [n_end, n_error] = std::from_chars(middle + 1, end, count);
  return i_error == std::errc() && i_end == middle && n_error == std::errc() && n_end == end &&
         index < count;
}

ShardRecord read_shard(const json &explore, const std::string &file) {
  if (!explore.is_object()) throw UsageError(file + ": \"run.explore\" is not an object");
  Reader r(explore, file, "run.explore");
  ShardRecord s;
  s.file = explore.contains("file") && explore["file"].is_string()
               ? explore["file"].get<std::string>()
               : file;
  std::string shard = r.text("shard");
  if (shard.empty()) shard = "0/1";
  if (!parse_shard(shard, s.index, s.count)) {
    throw UsageError(fmt::format("{}: \"run.explore.shard\" is not I/N with I < N: '{}'", file, shard));
  }
  s.strategy = r.text("strategy");
  if (r.member("seed", &json::is_number_integer, "a whole number")) s.seed = r.count("seed");
  s.schedules = r.count("schedules");
  if (const json *v = r.member("schedules_complete", &json::is_boolean, "true or false"))
    s.schedules_complete = v->get<bool>();
  if (const json *v = r.member("schedules_incomplete", &json::is_object, "an object")) {
    Reader incomplete(*v, file, "run.explore.schedules_incomplete");
    s.incomplete.steps = incomplete.count("steps");
    s.incomplete.time = incomplete.count("time");
    if (v->contains("threads")) s.incomplete.threads = incomplete.count("threads");
  }
  if (const json *v = r.member("seconds", &json::is_number, "a number")) s.seconds = v->get<double>();
  if (const json *v = r.member("per_strategy", &json::is_object, "an object")) {
    Reader counts(*v, file, "run.explore.per_strategy");
    for (const auto &[strategy, n] : v->items()) s.per_strategy[strategy] = counts.count(strategy.c_str());
  }
  if (const json *v = r.member("failure", &json::is_object, "an object")) {
    // Checked here, used as they are by failure_schedule() and `snag merge`.
    Reader failure(*v, file, "run.explore.failure");
    failure.count("schedule");
    failure.text("kind");
    failure.text("location");
    s.failure = *v;
  }
  if (const json *v = r.member("replay_file", &json::is_string, "a string")) s.replay_file = *v;
  s.program_fnv1a64 = r.text("program_fnv1a64");
  return s;
}

json shard_json(const ShardRecord &s) {
  return {{"file", s.file},
          {"shard", s.shard()},
          {"strategy", s.strategy},
          {"seed", s.seed ? json(*s.seed) : json(nullptr)},
          {"schedules", s.schedules},
          {"schedules_complete", s.schedules_complete},
          {"schedules_incomplete", incomplete_json(s.incomplete)},
          {"seconds", s.seconds},
          {"per_strategy", s.per_strategy},
          {"failure", s.failure},
          {"replay_file", s.replay_file},
          {"program_fnv1a64", s.program_fnv1a64}};
}

// "0, 1, 3"
std::string index_list(const std::vector<unsigned> &indices) {
  std::string out;
  for (unsigned i : indices) out += (out.empty() ? "" : ", ") + std::to_string(i);
  return out;
}

}  // namespace

std::optional<uint64_t> whole_number(const json &value) {
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() >= 0) return value.get<uint64_t>();
  return std::nullopt;
}

std::string ShardRecord::shard() const { return fmt::format("{}/{}", index, count); }

std::optional<uint64_t> ShardRecord::failure_schedule() const {
  if (!failure.is_object()) return std::nullopt;
  auto it = failure.find("schedule");
  return it == failure.end() ? std::nullopt : whole_number(*it);
}

std::vector<ShardRecord> shard_records(const json &explore, const std::string &file) {
  std::vector<ShardRecord> out;
  if (explore.is_object() && explore.contains("shards")) {
    const json &shards = explore["shards"];
    if (!shards.is_array()) throw UsageError(file + ": \"run.explore.shards\" is not an array");
    for (const json &shard : shards) out.push_back(read_shard(shard, file));
  } else {
    out.push_back(read_shard(explore, file));
  }
  return out;
}

MergedShards merge_shards(const std::vector<ShardRecord> &shards) {
  MergedShards merged;
  if (shards.empty()) return merged;
  const ShardRecord &first = shards.front();
  for (const ShardRecord &s : shards) {
    if (s.count != first.count) {
      throw UsageError(fmt::format(
          "{} is shard {} but {} is shard {}: merge the shards of one split (the same N in "
          "--shard I/N)",
          first.file, first.shard(), s.file, s.shard()));
    }
  }

  uint64_t schedules = 0;
  IncompleteSchedules incomplete;
  double seconds = 0;
  bool complete = true;
  std::map<std::string, uint64_t> per_strategy;
  std::map<unsigned, std::vector<std::string>> files_of_shard;
  std::set<std::string> strategies;
  std::set<uint64_t> seeds;
  json records = json::array();
  for (size_t i = 0; i < shards.size(); ++i) {
    const ShardRecord &s = shards[i];
    schedules += s.schedules;
    incomplete += s.incomplete;
    seconds += s.seconds;
    complete = complete && s.schedules_complete;
    for (const auto &[strategy, n] : s.per_strategy) per_strategy[strategy] += n;
    files_of_shard[s.index].push_back(s.file);
    strategies.insert(s.strategy);
    if (s.seed) seeds.insert(*s.seed);
    records.push_back(shard_json(s));
    std::optional<uint64_t> at = s.failure_schedule();
    if (at && (!merged.earliest || *at < *shards[*merged.earliest].failure_schedule()))
      merged.earliest = i;
  }

  std::vector<unsigned> given;
  for (const auto &[index, files] : files_of_shard) {
    given.push_back(index);
    if (files.size() > 1) {
      std::string names;
      for (const std::string &f : files) names += (names.empty() ? "" : ", ") + f;
      merged.warnings.push_back(fmt::format(
          "shard {}/{} is given {} times ({}); its schedules are counted each time", index,
          first.count, files.size(), names));
    }
  }
  for (unsigned i = 0; i < first.count; ++i)
    if (!files_of_shard.count(i)) merged.missing.push_back(i);
  if (!merged.missing.empty()) {
    bool one = merged.missing.size() == 1;
    merged.warnings.push_back(fmt::format(
        "shard{} {} of {} given: shard{} {} {} missing, so this is not the whole exploration",
        given.size() == 1 ? "" : "s", index_list(given), first.count, one ? "" : "s",
        index_list(merged.missing), one ? "is" : "are"));
  }
  // Shard I runs the schedule indices i with i mod N = I; schedule i's plan
  // derives from (seed, i). With other seeds the shards are not one split.
  if (seeds.size() > 1) {
    merged.warnings.push_back(fmt::format(
        "the shards ran with {} different seeds; they are not parts of one exploration (give "
        "every shard the same --seed)",
        seeds.size()));
  }

  json failure = nullptr, replay_file = nullptr;
  if (merged.earliest) {
    const ShardRecord &s = shards[*merged.earliest];
    failure = s.failure;
    failure["shard"] = s.shard();
    replay_file = s.replay_file;
  }
  merged.explore = {{"strategy", strategies.size() == 1 ? json(first.strategy) : json("mixed")},
                    {"seed", seeds.size() == 1 ? json(*seeds.begin()) : json(nullptr)},
                    {"shard_count", first.count},
                    {"shards_given", given},
                    {"missing_shards", merged.missing},
                    {"schedules", schedules},
                    {"schedules_complete", complete && merged.missing.empty()},
                    {"schedules_incomplete", incomplete_json(incomplete)},
                    {"seconds", seconds},
                    {"per_strategy", per_strategy},
                    {"failure", failure},
                    {"replay_file", replay_file},
                    {"shards", records},
                    {"warnings", merged.warnings}};
  return merged;
}

}  // namespace snag::cli
