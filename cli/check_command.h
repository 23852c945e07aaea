// `snag check`: races and deadlocks found from source without running the
// program (issue 12, paper 001). Builds the list of targets to check (from
// compile_commands.json with -p, else the files named on the command line as
// one program), compiles and links each through interp/frontend, runs the
// interpreter (interp/ir/checker.h) on it, and renders what it found as
// compiler-style diagnostics, JSON or SARIF.
#pragma once

#include <string>
#include <vector>

#include "command_line.h"
#include "interp/frontend/frontend.h"

namespace snag::cli {

// The translation units checked together: one build target (linked into one
// module), or one file alone.
struct CheckTarget {
  std::string name;  // the build target, or the file
  std::vector<interp::frontend::TranslationUnit> units;
};

// What to check, from the options. Throws UsageError for a missing file, a
// file not in the compilation database, or an unusable database.
// With -p, sources that are not C or C++ (assembler, CUDA, Objective-C) are
// left out, and `notes` (when given) says so.
std::vector<CheckTarget> plan_check(const Options &options, std::vector<std::string> *notes = nullptr);

// Whether snag check compiles a file of this name: .c, .cc, .cpp, .cxx, .c++, .C, .cp.
bool is_c_or_cxx_source(const std::string &file);

int run_check(const Options &options);

}  // namespace snag::cli
