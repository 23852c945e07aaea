// Running a compiler and keeping what it printed: `snag check` runs clang to
// preprocess and to compile each translation unit, and needs the bitcode
// (stdout) and the diagnostics (stderr) as strings, in the directory the
// compilation database names.
#pragma once

#include <string>
#include <vector>

namespace snag::interp::frontend {

struct CapturedRun {
  int exit_status = 0;  // 128+N when signal N ended it
  std::string out;      // everything written to stdout
  std::string err;      // everything written to stderr
};

// Runs argv[0] (looked up in PATH) with `argv` in `directory` (empty: the
// current one), stdin from /dev/null, and waits for it. Throws
// std::runtime_error with one line when the program cannot be started.
CapturedRun run_captured(const std::vector<std::string> &argv, const std::string &directory);

}  // namespace snag::interp::frontend
