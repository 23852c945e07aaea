// `--format json`: one JSON document with the resolved, deduplicated and
// ranked findings, for scripts that want more structure than JSON lines.
//
//   {"version": 1, "tool": {...}, "run": {...}, "findings": [...], "summary": {...}}
//
// Each element of "findings" has the shape of a findings line (docs/findings.md)
// plus "count" when duplicates were merged.
#pragma once

#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/finding.h"
#include "report/run_info.h"

namespace snag::report {

nlohmann::json to_report_json(const std::vector<Finding> &findings, const RunInfo &run);

// Writes the document, indented, followed by a newline.
void write_json(std::ostream &out, const std::vector<Finding> &findings, const RunInfo &run);

}  // namespace snag::report
