// The trap file: the trap set a run leaves for the next one, so a pair of
// calls that nearly conflicted once is delayed from its first occurrence in
// the next run (paper 000, "multiple testing runs"). Plain text, one pair a
// line, sites by stable id (docs/tsv.md):
//
//   snag-tsv-traps 1
//   program worker
//   pair 9a3b1c0d2e4f5061 0c1d2e3f40516273 dangerous
//   pair 1111111111111111 2222222222222222 ordered
//
// `snag tsv` validates the file before a run and replaces a corrupt one;
// the runtime still refuses anything malformed rather than guessing.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "snag/abi.h"

namespace snag::tsv {

// Receives the pairs of a parsed file.
class TrapFileReader {
 public:
  virtual void pair(snag_site_t a, snag_site_t b, bool dangerous) = 0;

 protected:
  ~TrapFileReader() = default;
};

// Parses `text`. On malformed input returns false and sets `error` to a
// static description; pairs before the bad line have been delivered.
bool parse_trap_file(const char *text, size_t length, TrapFileReader &reader, const char **error);

// Loads `path` into the trap set. A missing file is an empty one; a
// malformed one is reported on stderr and ignored.
void load_trap_file(const char *path);

// Writes the trap set's lasting pairs to `path` (through a temporary file
// renamed over it, so a reader never sees half a file), and keeps the file
// open to append to. `program` names the program in the file.
void save_trap_file(const char *path, const char *program);

// Appends one pair to the file save_trap_file wrote, at once, with one
// write(2) (a KeptFile, safe from what the program does to its
// descriptors): a program that crashes or is killed right after leaves what
// it learned.
void append_trap_pair(snag_site_t a, snag_site_t b, bool dangerous);

}  // namespace snag::tsv
