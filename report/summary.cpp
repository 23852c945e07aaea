#include "report/summary.h"

namespace snag::report {

std::vector<KindCount> count_by_kind(const std::vector<Finding> &findings) {
  std::vector<KindCount> out;
  for (const Finding &f : findings) {
    KindCount *entry = nullptr;
    for (KindCount &k : out)
      if (k.kind == f.kind) entry = &k;
    if (!entry) entry = &out.emplace_back(KindCount{f.kind, f.display_title(), 0, 0});
    entry->findings += 1;
    entry->reports += f.count;
  }
  return out;
}

std::string count_noun(uint64_t n, const std::string &noun) {
  std::string out = std::to_string(n) + ' ' + noun;
  if (n == 1) return out;
  // English plurals of the titles engines use: "crash" -> "crashes".
  bool sibilant = noun.ends_with("s") || noun.ends_with("x") || noun.ends_with("ch") ||
                  noun.ends_with("sh");
  return out + (sibilant ? "es" : "s");
}

std::string summary_line(const std::vector<Finding> &findings) {
  if (findings.empty()) return "snag: no findings";
  std::string out = "snag: " + count_noun(findings.size(), "finding") + " (";
  bool first = true;
  for (const KindCount &k : count_by_kind(findings)) {
    if (!first) out += ", ";
    out += count_noun(k.findings, k.title);
    first = false;
  }
  return out + ")";
}

}  // namespace snag::report
