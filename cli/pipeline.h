// The report pipeline as the command uses it: read the JSON lines, resolve
// frames through the program's site table, drop duplicates, rank.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "report/finding.h"

namespace snag::cli {

// `source` names the input in warnings ("findings", a file name). `program`
// is the binary whose site table resolves frames; empty for none. Problems
// (skipped lines, an unreadable site table, unresolved frames) are appended
// to `warnings`; none of them stops the pipeline.
std::vector<report::Finding> load_findings(std::istream &in, const std::string &source,
                                           const std::string &program,
                                           std::vector<std::string> &warnings);

}  // namespace snag::cli
