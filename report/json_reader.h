// Reading back a `--format json` report (json_writer.h): its findings and
// what it says about its run, so that `snag merge` can combine the reports of
// several runs (such as the shards of one `snag explore`) into one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/finding.h"
#include "report/run_info.h"

namespace snag::report {

struct JsonReport {
  std::vector<Finding> findings;
  // engine, program, arguments, exit status, notes and warnings as written;
  // every other member of "run" (such as "explore") is in `details`.
  RunInfo run;
};

// Parses one report. Returns std::nullopt and sets `error` (one line, no
// file name) when the text is not a snag JSON report this snag can read: not
// JSON, another format (SARIF, JSON lines), another version, or a finding or
// "run" member that lacks a required field or has the wrong type. A malformed
// optional field of a finding is dropped and described in `notes`. Never
// throws on bad input.
std::optional<JsonReport> read_json_report(std::string_view text, std::string &error,
                                           std::vector<std::string> &notes);

}  // namespace snag::report
