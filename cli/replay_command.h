// `snag replay [--shrink] REPLAY_FILE`: run the schedule a replay file
// records again and say whether the bug reproduced (or, with --shrink, write
// a smaller replay file, see shrink.h).
#pragma once

#include "command_line.h"

namespace snag::cli {

// Returns --exitcode when the bug reproduced, 1 when it did not.
int run_replay(const Options &options);

}  // namespace snag::cli
