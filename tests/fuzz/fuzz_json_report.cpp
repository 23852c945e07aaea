// A --format json report handed to `snag merge` is a user's file, possibly
// edited, cut off or of another format: any bytes. Every refusal is one line;
// whatever is accepted writes back as a report that reads again the same,
// and its explore statistics are refused in one line or added up.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

#include "cli/diagnostics.h"
#include "cli/merged_shards.h"
#include "report/json_reader.h"
#include "report/json_writer.h"
#include "report/version.h"

// report/version.cpp takes the version from the build's definitions; the
// writer only needs some version here.
const std::string &snag::report::tool_version() {
  static const std::string version = "fuzz";
  return version;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::vector<std::string> notes;
  auto report = snag::report::read_json_report(text, error, notes);
  if (!report) {
    if (error.empty() || error.find('\n') != std::string::npos) __builtin_trap();
    return 0;
  }
  std::string again = snag::report::to_report_json(report->findings, report->run)
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string second_error;
  auto reread = snag::report::read_json_report(again, second_error, notes);
  if (!reread || reread->findings.size() != report->findings.size()) __builtin_trap();

  // The explore statistics `snag merge` adds up: refused in one line, or merged.
  const nlohmann::json &details = report->run.details;
  if (!details.is_object() || !details.contains("explore")) return 0;
  try {
    std::vector<snag::cli::ShardRecord> shards = snag::cli::shard_records(details["explore"], "f.json");
    snag::cli::MergedShards merged = snag::cli::merge_shards(shards);
    if (merged.earliest && !shards[*merged.earliest].failure_schedule()) __builtin_trap();
  } catch (const snag::cli::UsageError &e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
