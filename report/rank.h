// Ranking: the most credible findings first (docs/findings.md, `rank`).
#pragma once

#include <vector>

#include "report/finding.h"

namespace snag::report {

// Sorts by rank, highest first. The sort is stable, so findings of equal
// rank keep the order in which the program reported them.
void rank(std::vector<Finding> &findings);

}  // namespace snag::report
