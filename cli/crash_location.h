// The exact line of a crash. The runtime knows a thread's stack only through
// its instrumented calls, so a fault in the program's own code (a null
// dereference) would be reported at the last call before it; the explore
// engine therefore records the faulting instruction's address in the
// executable (detail "fault_address"), and this turns it into a frame.
#pragma once

#include <string>
#include <vector>

#include "report/finding.h"

namespace snag::cli {

// Puts the faulting instruction's frame (function, file:line:column, via
// llvm-symbolizer) on top of the first side's stack of each finding that
// has a fault_address, unless that stack already starts at that line.
// Without a symbolizer the findings stay as they are and a warning says why.
void locate_crashes(std::vector<report::Finding> &findings, const std::string &program,
                    std::vector<std::string> &warnings);

}  // namespace snag::cli
