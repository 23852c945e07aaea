// Counting findings by kind, shared by the text summary line and the JSON and
// SARIF writers so that all three always agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/finding.h"

namespace snag::report {

struct KindCount {
  std::string kind;   // "data-race"
  std::string title;  // "data race" (the display title of the first finding of this kind)
  size_t findings = 0;   // distinct findings after dedup
  uint64_t reports = 0;  // including merged duplicates
};

// One entry per kind, in order of first appearance.
std::vector<KindCount> count_by_kind(const std::vector<Finding> &findings);

// "1 data race", "2 data races", "3 crashes".
std::string count_noun(uint64_t n, const std::string &noun);

// "snag: 3 findings (2 data races, 1 deadlock)" or "snag: no findings".
std::string summary_line(const std::vector<Finding> &findings);

}  // namespace snag::report
