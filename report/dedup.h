// Duplicate findings (docs/findings.md, "Duplicates"): the same kind and the
// same multiset of the sides' innermost frames. A loop that races a million
// times must give one report, not a million.
#pragma once

#include <string>
#include <vector>

#include "report/finding.h"

namespace snag::report {

// The identity of a finding for deduplication: its kind and the sorted list of
// its sides' innermost frames (file:line:column, or the site id when the frame
// is unresolved). Also the basis of SARIF's partialFingerprints.
std::string dedup_key(const Finding &finding);

// Keeps the first finding of each group of duplicates, in first-seen order,
// with `count` the sum of the counts of the group.
std::vector<Finding> dedup(std::vector<Finding> findings);

}  // namespace snag::report
