#include "explore_records.h"

#include <fstream>

#include <nlohmann/json.hpp>

namespace snag::cli {

using nlohmann::json;

namespace {

// Lenient getters: a field of the wrong type counts as missing, so a runtime
// a version ahead cannot make snag throw.
std::string text(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

uint64_t count(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

bool flag(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

ScheduleRecord schedule_from(const json &r) {
  ScheduleRecord record;
  record.schedule = count(r, "schedule");
  record.strategy = text(r, "strategy");
  record.seed = count(r, "seed");
  record.kind = text(r, "kind");
  record.message = text(r, "message");
  record.steps = count(r, "steps");
  record.preemptions = count(r, "preemptions");
  record.points = text(r, "points");
  record.truncated = flag(r, "truncated");
  record.diverged = flag(r, "diverged");
  if (auto it = r.find("diverged_at"); it != r.end() && it->is_number_unsigned())
    record.diverged_at = it->get<uint64_t>();
  record.decisions = text(r, "decisions");
  return record;
}

// A failure counts only with the kind of bug and the decisions to replay it.
std::optional<ScheduleRecord> failure_from(const json &r) {
  if (!r.contains("kind") || !r["kind"].is_string() || !r.contains("decisions") ||
      !r["decisions"].is_string()) {
    return std::nullopt;
  }
  return schedule_from(r);
}

SummaryRecord summary_from(const json &r) {
  SummaryRecord summary;
  summary.schedules = count(r, "schedules");
  if (auto it = r.find("seconds"); it != r.end() && it->is_number())
    summary.seconds = it->get<double>();
  summary.failures = count(r, "failures");
  if (auto it = r.find("incomplete"); it != r.end() && it->is_object()) {
    summary.incomplete.steps = count(*it, "steps");
    summary.incomplete.time = count(*it, "time");
    summary.incomplete.threads = count(*it, "threads");
  }
  if (auto it = r.find("per_strategy"); it != r.end() && it->is_object()) {
    for (const auto &[name, n] : it->items())
      if (n.is_number_unsigned()) summary.per_strategy[name] = n.get<uint64_t>();
  }
  summary.threads = count(r, "threads");
  summary.forked = flag(r, "forked");
  if (auto it = r.find("notes"); it != r.end() && it->is_array()) {
    for (const json &note : *it)
      if (note.is_string()) summary.notes.push_back(note.get<std::string>());
  }
  return summary;
}

}  // namespace

ExploreRecords read_explore_records(std::istream &in, const std::string &source,
                                    std::vector<std::string> *warnings) {
  ExploreRecords records;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json record = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object()) {
      if (warnings)
        warnings->push_back(source + ": line " + std::to_string(number) +
                            ": not a JSON object; skipped");
      continue;
    }
    std::string type = text(record, "type");
    if (type == "failure" && !records.failure) {
      records.failure = failure_from(record);
      if (!records.failure && warnings) {
        warnings->push_back(source + ": line " + std::to_string(number) +
                            ": failure record without kind or decisions; skipped");
      }
    } else if (type == "schedule" && !records.schedule) {
      records.schedule = schedule_from(record);
    } else if (type == "output" && !records.output) {
      records.output = record;
    } else if (type == "summary" && !records.summary) {
      records.summary = summary_from(record);
    }
  }
  return records;
}

ExploreRecords read_explore_records_file(const std::string &path, const std::string &source,
                                         std::vector<std::string> *warnings) {
  std::ifstream in(path, std::ios::binary);
  return read_explore_records(in, source, warnings);
}

}  // namespace snag::cli
