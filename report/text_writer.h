// Human-readable reports in the layout ThreadSanitizer users know: a block
// per finding between "==================" lines, one stack per side, the
// memory location, the locks held and the threads' creation stacks, then a
// SUMMARY line; a final line counts the findings.
#pragma once

#include <ostream>
#include <vector>

#include "report/finding.h"

namespace snag::report {

struct TextOptions {
  bool color = false;  // ANSI colors; for terminals only
};

// One finding's block, from the opening to the closing separator.
void write_text_finding(std::ostream &out, const Finding &finding, const TextOptions &options);

// Every finding's block, then the summary line ("snag: no findings" when empty).
void write_text(std::ostream &out, const std::vector<Finding> &findings, const TextOptions &options);

}  // namespace snag::report
