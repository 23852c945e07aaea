#include "report/rank.h"

#include <algorithm>

namespace snag::report {

void rank(std::vector<Finding> &findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding &a, const Finding &b) { return a.rank > b.rank; });
}

}  // namespace snag::report
