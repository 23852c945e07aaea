// Data races inside calls of thread-unsafe classes. Two threads calling
// push_back on one std::vector race on several fields deep inside
// libstdc++; the bug is the two calls the program made. A race whose two
// sides are both inside such calls (the first frame outside the toolchain's
// headers is a call the site table marks as an API call, see
// docs/site-table.md) is described as a race between those calls: the
// message and details name the object's type and both operations, and
// dedup(), which keys sides by that first frame, folds the raw races of one
// pair of calls into one finding.
#pragma once

#include <vector>

#include "report/finding.h"
#include "report/site_table.h"

namespace snag::report {

void describe_library_races(std::vector<Finding> &findings, const SiteTable &table);

}  // namespace snag::report
