#include "report/json_reader.h"

#include <nlohmann/json.hpp>

namespace snag::report {

using nlohmann::json;

namespace {

// The members of "run" that RunInfo has a field for (json_writer.cpp's run_json).
bool is_run_field(const std::string &key) {
  return key == "engine" || key == "program" || key == "arguments" || key == "exit_status" ||
         key == "signal" || key == "timed_out" || key == "notes" || key == "warnings";
}

bool is_string_list(const json &value) {
  if (!value.is_array()) return false;
  for (const json &item : value)
    if (!item.is_string()) return false;
  return true;
}

// Fills `run` from the "run" object; returns the problem, or "" when none.
std::string read_run(const json &object, RunInfo &run) {
  if (!object.is_object()) return "\"run\" is not an object";
  run.details = json::object();
  for (const auto &[key, value] : object.items()) {
    if (!is_run_field(key)) {
      run.details[key] = value;
      continue;
    }
    bool text = key == "engine" || key == "program";
    bool list = key == "arguments" || key == "notes" || key == "warnings";
    bool status = key == "exit_status" || key == "signal";
    if ((text && !value.is_string()) || (list && !is_string_list(value)) ||
        (status && !value.is_number_integer()) || (key == "timed_out" && !value.is_boolean())) {
      return "\"run\": field '" + key + "' has the wrong type";
    }
    if (key == "engine") run.engine = value.get<std::string>();
    else if (key == "program") run.program = value.get<std::string>();
    else if (key == "arguments") run.arguments = value.get<std::vector<std::string>>();
    else if (key == "notes") run.notes = value.get<std::vector<std::string>>();
    else if (key == "warnings") run.warnings = value.get<std::vector<std::string>>();
    else if (key == "exit_status") run.exit_status = value.get<int>();
    else if (key == "signal") run.signal = value.get<int>();
    else run.timed_out = value.get<bool>();
  }
  if (run.details.empty()) run.details = nullptr;
  return "";
}

}  // namespace

std::optional<JsonReport> read_json_report(std::string_view text, std::string &error,
                                           std::vector<std::string> &notes) {
  json document;
  try {
    document = json::parse(text.begin(), text.end());
  } catch (const json::parse_error &e) {
    error = "not valid JSON at byte " + std::to_string(e.byte);
    // A findings file holds one object per line: the second one is where
    // parsing a single document fails.
    std::string_view first_line = text.substr(0, text.find('\n'));
    json line = json::parse(first_line.begin(), first_line.end(), nullptr, false);
    if (line.is_object() && line.contains("kind") && line.contains("snag")) {
      error = "is a findings file (JSON lines), not a --format json report";
    }
    return std::nullopt;
  }
  if (!document.is_object()) {
    error = "not a snag JSON report (not a JSON object)";
    return std::nullopt;
  }
  if (document.contains("runs") && document.contains("version") && !document.contains("findings")) {
    error = "is a SARIF log; merge reads --format json reports";
    return std::nullopt;
  }
  if (!document.contains("findings") || !document.contains("run")) {
    if (document.contains("snag") && document.contains("kind")) {
      error = "is a findings line, not a report; merge reads --format json reports";
    } else {
      error = "not a snag JSON report (no \"findings\" and \"run\")";
    }
    return std::nullopt;
  }
  const json &version = document.value("version", json());
  if (!version.is_number_integer()) {
    error = "not a snag JSON report (no \"version\" number)";
    return std::nullopt;
  }
  if (version.get<int64_t>() != kFindingsFormatVersion) {
    error = "is a version " + version.dump() + " report; this snag reads version " +
            std::to_string(kFindingsFormatVersion);
    return std::nullopt;
  }
  const json &tool = document.value("tool", json());
  if (tool.is_object() && tool.contains("name") && tool["name"] != "snag") {
    error = "was not written by snag (tool " + tool["name"].dump() + ")";
    return std::nullopt;
  }

  JsonReport report;
  if (std::string problem = read_run(document["run"], report.run); !problem.empty()) {
    error = problem;
    return std::nullopt;
  }
  const json &findings = document["findings"];
  if (!findings.is_array()) {
    error = "\"findings\" is not an array";
    return std::nullopt;
  }
  for (size_t i = 0; i < findings.size(); ++i) {
    std::string where = "finding " + std::to_string(i + 1) + ": ";
    std::vector<std::string> finding_notes;
    std::optional<Finding> finding = finding_from_json(findings[i], error, finding_notes);
    if (!finding) {
      error = where + error;
      return std::nullopt;
    }
    for (const std::string &note : finding_notes) notes.push_back(where + note);
    report.findings.push_back(std::move(*finding));
  }
  return report;
}

}  // namespace snag::report
