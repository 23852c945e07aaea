// `snag report FILE.jsonl [--program BIN]`: render findings written by a
// program that ran on its own (SNAG_OPTIONS=findings=FILE).
#pragma once

#include "command_line.h"

namespace snag::cli {

// Returns --exitcode when the file holds findings, 0 otherwise.
int render_findings_file(const Options &options);

}  // namespace snag::cli
