// The `snag explore` statistics of several shards (--shard I/N), added up for
// `snag merge`: schedule counts, the shards given and missing, and the
// earliest failure among them with the replay file that reproduces it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explore_records.h"

namespace snag::cli {

// A JSON whole number from 0 up (parsed or built in code), else nullopt.
std::optional<uint64_t> whole_number(const nlohmann::json &value);

// One shard's "run.explore" object of a --format json report.
struct ShardRecord {
  std::string file;  // the report it came from
  unsigned index = 0, count = 1;
  std::string strategy;
  std::optional<uint64_t> seed;
  uint64_t schedules = 0;
  bool schedules_complete = true;
  IncompleteSchedules incomplete;
  double seconds = 0;
  std::map<std::string, uint64_t> per_strategy;
  nlohmann::json failure;  // null when the shard found nothing
  nlohmann::json replay_file;
  std::string program_fnv1a64;  // "" in reports of older snags

  std::string shard() const;  // "I/N"
  std::optional<uint64_t> failure_schedule() const;
};

// The shard records of one report's "explore" object: the object itself, or,
// for a report `snag merge` wrote, the shards it merged ("shards"). Throws
// UsageError naming `file` when a member has the wrong type.
std::vector<ShardRecord> shard_records(const nlohmann::json &explore, const std::string &file);

struct MergedShards {
  nlohmann::json explore;             // the merged "run.explore" object
  std::vector<std::string> warnings;  // missing or repeated shards, mixed seeds
  std::vector<unsigned> missing;
  // The shard whose failure has the lowest schedule index, if any failed.
  std::optional<size_t> earliest;
};

// Adds up the shards. Throws UsageError when they belong to different splits
// (shard counts N differ).
MergedShards merge_shards(const std::vector<ShardRecord> &shards);

}  // namespace snag::cli
