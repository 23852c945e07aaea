#include "report/dedup.h"

#include <algorithm>
#include <unordered_map>

namespace snag::report {

namespace {

// The side's own line (its first frame outside the toolchain's headers), so
// that the raw races one pair of push_back calls makes inside libstdc++ are
// one finding. Prefixes keep a resolved position and a raw site id from ever
// comparing equal.
std::string frame_key(const Side &side) {
  if (side.stack.empty()) return "none:";
  const Frame &top = *side_primary_frame(side);
  if (top.has_location()) return "loc:" + top.location();
  if (!top.site.empty()) return "site:" + top.site;
  return "function:" + top.function;
}

}  // namespace

std::string dedup_key(const Finding &finding) {
  std::vector<std::string> frames;
  for (const Side &side : finding.sides) frames.push_back(frame_key(side));
  // A multiset: T1-writes/T2-reads and T2-writes/T1-reads at the same two
  // places are the same bug.
  std::sort(frames.begin(), frames.end());
  std::string key = finding.kind;
  for (const std::string &frame : frames) key += '\n' + frame;
  return key;
}

std::vector<Finding> dedup(std::vector<Finding> findings) {
  std::vector<Finding> kept;
  std::unordered_map<std::string, size_t> index_of_key;
  for (Finding &finding : findings) {
    auto [it, inserted] = index_of_key.try_emplace(dedup_key(finding), kept.size());
    if (inserted) kept.push_back(std::move(finding));
    else kept[it->second].count += finding.count;
  }
  return kept;
}

}  // namespace snag::report
