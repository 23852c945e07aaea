// The output oracle (`snag explore --compare-output`): a deterministic
// computation run on several threads must print the same result under every
// schedule. The fork server gives each schedule's child a memory file as its
// stdout, puts the program's named output files back as they were at the
// fork point before each schedule, and after a schedule that ended cleanly
// compares what it wrote (FNV-1a 64 hashes) with the reference: what
// schedule 0 wrote. A worker whose first schedule is not schedule 0 runs
// schedule 0's plan once first, uncounted, to have the same reference.
// A schedule whose output differs is a failure of kind "output-mismatch",
// reported with the first differing line of both versions.
#pragma once

#include <stdint.h>

namespace snag::explore {

// Reads option compare_output (a file listing the output files to compare,
// one path a line; empty: stdout only). Returns whether the oracle is on.
bool output_oracle_start();
bool output_oracle_active();

// In the fork server, before each fork: an empty stdout capture, and the
// output files as they were at the fork point.
void output_oracle_before_schedule();
// In the child, after its output went to /dev/null: stdout to the capture.
void output_oracle_enter_child();

// In the fork server, after the reference schedule: keeps what it wrote as
// the reference when it ended cleanly, else turns the oracle off for this
// process with a note (`note`, `capacity` bytes) saying why.
void output_oracle_take_reference(bool ended_cleanly, char *note, uint64_t capacity);
bool output_oracle_has_reference();

// In the fork server, after a schedule that ended cleanly: true, with an
// output-mismatch finding reported and the failure recorded in the shared
// results, when its output differs from the reference.
bool output_oracle_differs();

// After an output-mismatch failure: the "output" record of explore_out that
// the CLI copies into the replay
// file (the reference's hashes and the first difference).
void output_oracle_write_record();

}  // namespace snag::explore
