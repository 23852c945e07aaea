// Frames in code snag did not compile (the runtime names them by module and
// offset, runtime/core/native_stack.h) get their function, file and line
// from the module's own symbols and debug information.
#pragma once

#include <vector>

#include "report/finding.h"

namespace snag::cli {

void symbolize_code_frames(std::vector<report::Finding> &findings);

}  // namespace snag::cli
