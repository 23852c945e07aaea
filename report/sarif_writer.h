// `--format sarif`: a SARIF 2.1.0 log for CI systems and editors.
//
// One run; one rule per finding kind; one result per finding whose primary
// location is the first side's innermost frame, with the other sides'
// innermost frames as related locations, every side's whole stack as a
// threadFlow (in call order) and as a SARIF stack (innermost first), and
// snag's own data (rank, seed, engine, details) in the result's properties.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/finding.h"
#include "report/run_info.h"

namespace snag::report {

inline constexpr const char *kSarifSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

// A file path as a SARIF artifact URI: "file:///abs/path" for absolute paths,
// a percent-encoded relative reference otherwise.
std::string path_to_uri(const std::string &path);

nlohmann::json to_sarif(const std::vector<Finding> &findings, const RunInfo &run);

// Writes the log, indented, followed by a newline.
void write_sarif(std::ostream &out, const std::vector<Finding> &findings, const RunInfo &run);

}  // namespace snag::report
