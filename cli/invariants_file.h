// The guard engine's invariants file as `snag learn` sees it (docs/guard.md):
// read through the runtime's own parser (so the CLI and the runtime never
// disagree about what is well formed), merged with what a new run learned,
// and written back sorted so the file diffs well under version control.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace snag::cli {

// BSet(S) for every site S: its remote predecessor sites, 0 standing for
// "nil" (no remote predecessor).
struct Invariants {
  std::string program;
  std::map<std::uint64_t, std::set<std::uint64_t>> bsets;
  // Facts learned beside the BSets (docs/guard.md): the outermost lock held
  // at a site (expose stalls there), pairs of sites that touched the same
  // address (bias groups), and how often each site ran.
  std::map<std::uint64_t, std::uint64_t> locks;
  std::set<std::pair<std::uint64_t, std::uint64_t>> edges;
  std::map<std::uint64_t, std::uint64_t> counts;
};

// What a merge changed, as `snag learn` prints it.
struct InvariantsChange {
  int sites = 0;    // sites that are new or gained a predecessor
  int entries = 0;  // (site, predecessor) pairs added
};

// Parses the text of an invariants file. Throws UsageError with one line
// ("invariants file NAME: line N: ...") when it is corrupt or foreign.
Invariants parse_invariants_text(const std::string &text, const std::string &name);

// Reads `path`; a missing file is an empty set. Throws UsageError when the
// file cannot be read or is corrupt or foreign.
Invariants load_invariants_file(const std::string &path);

// The file's text: header, program line, one sorted `bset` line per entry,
// then the lock, edge and count facts.
std::string render_invariants(const Invariants &invariants);

// Adds everything `learned` holds to `into` (counts add up, the first lock
// known for a site stays); says what changed in the BSets.
InvariantsChange merge_invariants(Invariants &into, const Invariants &learned);

}  // namespace snag::cli

namespace snag::cli {
// Writes `invariants` to `path` through a temporary file renamed over it, so
// a reader never sees half a file. Throws UsageError when it cannot.
void save_invariants_file(const std::string &path, const Invariants &invariants);
}  // namespace snag::cli
