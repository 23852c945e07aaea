// The sites a lean `guard` build instruments (-fsnag-instrument=guard with
// -fsnag-invariants=F, docs/guard.md "A lean production build"): the sites
// the invariants file F names (each S with a BSet and each predecessor P,
// which must update the recorder), minus, with -fsnag-bias=N, the sites of
// every group that carried more than N% of the accesses in the learning
// runs (paper 003, 3.4.1: sites are grouped when they touched the same
// address; the hot groups are the compute kernels, which testing already
// exercises the most).
//
// Read once per compiler process from SNAG_GUARD_INVARIANTS and
// SNAG_GUARD_BIAS, which the wrapper sets. A file that cannot be read or
// parsed stops the compilation with one line (report_fatal_error without a
// crash report).
#ifndef SNAG_PLUGIN_GUARD_SITES_H
#define SNAG_PLUGIN_GUARD_SITES_H

#include <cstdint>
#include <string>
#include <unordered_set>

namespace snag {

class GuardSites {
public:
  // Loads the file; prints one summary line to stderr (what the bias left out).
  static GuardSites fromEnvironment();

  bool allows(uint64_t Site) const { return Sites.count(Site) != 0; }

  // The summary line, for tests and -fsnag-verbose.
  const std::string &summary() const { return Summary; }

private:
  std::unordered_set<uint64_t> Sites;
  std::string Summary;
};

} // namespace snag

#endif
