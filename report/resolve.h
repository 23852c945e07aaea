// Fills in frames the writer could not resolve, from the program's site table.
#pragma once

#include <cstddef>
#include <vector>

#include "report/finding.h"
#include "report/site_table.h"

namespace snag::report {

struct ResolveStats {
  size_t frames = 0;      // frames looked at
  size_t filled = 0;      // frames that got at least one field from the table
  size_t unresolved = 0;  // frames still without a file afterwards
};

// Fills the missing function, file, line and column of every frame (side
// stacks, lock stacks, thread creation stacks, allocation stacks) whose site id
// is in `table`. Fields the writer already set are kept: the runtime knows the
// tables of shared libraries too, and its answer is as good as ours.
ResolveStats resolve(Finding &finding, const SiteTable &table);
ResolveStats resolve(std::vector<Finding> &findings, const SiteTable &table);

}  // namespace snag::report
