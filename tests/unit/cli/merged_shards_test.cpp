#include "cli/merged_shards.h"

#include <gtest/gtest.h>

#include "cli/diagnostics.h"

namespace snag::cli {
namespace {

using nlohmann::json;

json shard(const char *which, uint64_t schedules, json failure = nullptr) {
  return {{"strategy", "pct"},        {"seed", 1},
          {"shard", which},           {"schedules", schedules},
          {"schedules_complete", true},
          {"schedules_incomplete", {{"steps", 1}, {"time", 0}}},
          {"seconds", 0.5},           {"per_strategy", {{"pct", schedules}}},
          {"failure", failure},       {"replay_file", failure.is_null() ? json() : json("r.json")}};
}

std::vector<ShardRecord> records(std::initializer_list<std::pair<json, const char *>> shards) {
  std::vector<ShardRecord> out;
  for (const auto &[explore, file] : shards) {
    auto some = shard_records(explore, file);
    out.insert(out.end(), some.begin(), some.end());
  }
  return out;
}

TEST(MergedShards, AddsUpAndNamesTheEarliestFailure) {
  json late = {{"schedule", 6}, {"kind", "deadlock"}};
  json early = {{"schedule", 1}, {"kind", "deadlock"}};
  MergedShards merged = merge_shards(
      records({{shard("2/4", 7, late), "c.json"}, {shard("1/4", 2, early), "b.json"},
               {shard("0/4", 10), "a.json"}}));
  EXPECT_EQ(merged.explore["schedules"], 19);
  EXPECT_EQ(merged.explore["per_strategy"]["pct"], 19);
  EXPECT_EQ(merged.explore["schedules_incomplete"]["steps"], 3);
  EXPECT_EQ(merged.explore["missing_shards"], json({3}));
  EXPECT_EQ(merged.explore["shards_given"], json({0, 1, 2}));
  EXPECT_FALSE(merged.explore["schedules_complete"].get<bool>());
  ASSERT_TRUE(merged.earliest);
  EXPECT_EQ(*merged.earliest, 1u);
  EXPECT_EQ(merged.explore["failure"]["schedule"], 1);
  EXPECT_EQ(merged.explore["failure"]["shard"], "1/4");
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_EQ(merged.warnings[0],
            "shards 0, 1, 2 of 4 given: shard 3 is missing, so this is not the whole exploration");
}

TEST(MergedShards, AddsUpSchedulesCutShortByThreadsThatCouldNotBeCreated) {
  json with_threads = shard("0/2", 5);
  with_threads["schedules_incomplete"]["threads"] = 2;
  MergedShards merged = merge_shards(records({{with_threads, "a.json"}, {shard("1/2", 4), "b.json"}}));
  EXPECT_EQ(merged.explore["schedules_incomplete"]["threads"], 2);
  EXPECT_EQ(merged.explore["schedules_incomplete"]["steps"], 2);
  EXPECT_EQ(merged.explore["shards"][0]["schedules_incomplete"]["threads"], 2);
  EXPECT_FALSE(merged.explore["shards"][1]["schedules_incomplete"].contains("threads"));
}

TEST(MergedShards, AMergedReportGivesBackItsShards) {
  MergedShards first = merge_shards(records({{shard("0/2", 3), "a.json"}}));
  MergedShards again =
      merge_shards(records({{first.explore, "ab.json"}, {shard("1/2", 4), "b.json"}}));
  EXPECT_EQ(again.explore["schedules"], 7);
  EXPECT_TRUE(again.missing.empty());
  EXPECT_TRUE(again.warnings.empty());
  EXPECT_EQ(again.explore["shards"][0]["file"], "a.json");
}

TEST(MergedShards, RefusesShardsOfDifferentSplits) {
  EXPECT_THROW(merge_shards(records({{shard("0/2", 3), "a.json"}, {shard("1/3", 3), "b.json"}})),
               UsageError);
  EXPECT_THROW(shard_records(shard("2/2", 3), "a.json"), UsageError);
  EXPECT_THROW(shard_records(shard("x", 3), "a.json"), UsageError);
  json wrong = shard("0/2", 3);
  wrong["schedules"] = "many";
  EXPECT_THROW(shard_records(wrong, "a.json"), UsageError);
}

TEST(MergedShards, WarnsAboutRepeatedShardsAndMixedSeeds) {
  json other_seed = shard("1/2", 3);
  other_seed["seed"] = 2;
  MergedShards merged = merge_shards(
      records({{shard("0/2", 3), "a.json"}, {shard("0/2", 3), "a2.json"}, {other_seed, "b.json"}}));
  ASSERT_EQ(merged.warnings.size(), 2u);
  EXPECT_EQ(merged.warnings[0],
            "shard 0/2 is given 2 times (a.json, a2.json); its schedules are counted each time");
  EXPECT_NE(merged.warnings[1].find("2 different seeds"), std::string::npos);
  EXPECT_TRUE(merged.explore["seed"].is_null());
}

}  // namespace
}  // namespace snag::cli
