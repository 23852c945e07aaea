// `snag check` runs in an executable of its own, snag-check, installed next
// to snag: it alone links LLVM (the clang front end and the interpreter), so
// that every other command starts without loading libLLVM (51 MB resident
// and about 0.1 s of start-up for `snag race ./prog`, which a user measuring
// the program with /usr/bin/time would see as the program's own).
#pragma once

namespace snag::cli {

// Replaces this process with snag-check, given snag's own arguments (argv
// as main got it: `snag check ...`, already parsed and valid). Returns only
// when snag-check cannot be run, after printing one line that says why,
// with snag's usage exit status.
int run_check_tool(char **argv);

}  // namespace snag::cli
