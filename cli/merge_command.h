// `snag merge FILE...`: one report from the --format json reports of several
// runs, such as the shards of one `snag explore` (docs/explore.md,
// "Splitting a budget").
#pragma once

#include "command_line.h"

namespace snag::cli {

// Returns the exit status: --exitcode when the merged report has findings
// that count, 0 otherwise. Throws UsageError for unreadable, corrupt or
// mixed-program input.
int run_merge(const Options &options);

}  // namespace snag::cli
