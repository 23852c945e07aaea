// The invariants file of `snag learn` / `snag guard` / `snag expose` (paper
// 003, "Anticipating Invariants"): for each shared access site S, BSet(S),
// the remote predecessor sites seen before S in runs the user trusts. Plain
// text, versioned, sites by stable id (docs/site-table.md) so the file
// survives a rebuild of unchanged code (format in docs/guard.md):
//
//   snag-invariants 1
//   program worker
//   # comment
//   bset 9a3b1c0d2e4f5061 0c1d2e3f40516273
//   bset 9a3b1c0d2e4f5061 nil
//   lock 9a3b1c0d2e4f5061 5e6f708192a3b4c5
//   edge 9a3b1c0d2e4f5061 0c1d2e3f40516273
//   count 9a3b1c0d2e4f5061 1234
//
// "nil" means S was seen with no remote predecessor (first access to the
// address, or only the same thread touched it before). `lock S L`: S ran
// while the thread held a lock it took at site L (its outermost), where
// `snag expose` moves a stall up to. `edge A B`: sites A and B touched the
// same address (bias instrumentation groups sites by these). `count S N`:
// S ran N times in the learning runs.
//
// The parser has a file of its own, with no dependency beyond libc's
// declarations, so the runtime, the CLI and a fuzz target share it.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "snag/abi.h"

namespace snag::guard {

// The predecessor value that stands for "nil" (no remote predecessor).
// Stable site ids are never 0 (docs/site-table.md).
constexpr snag_site_t kNilPredecessor = 0;

// Receives the entries of a parsed file, in file order.
class InvariantsReader {
 public:
  virtual void entry(snag_site_t site, snag_site_t predecessor) = 0;
  virtual void lock(snag_site_t site, snag_site_t lock_site) { (void)site, (void)lock_site; }
  virtual void edge(snag_site_t a, snag_site_t b) { (void)a, (void)b; }
  virtual void count(snag_site_t site, uint64_t n) { (void)site, (void)n; }

 protected:
  ~InvariantsReader() = default;
};

// Parses `text`. On malformed input returns false and sets `error` to a
// static description and `line` to the 1-based line number at fault;
// entries before the bad line have been delivered.
bool parse_invariants(const char *text, size_t length, InvariantsReader &reader,
                      const char **error, int *line);

}  // namespace snag::guard
