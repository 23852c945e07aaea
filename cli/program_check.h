// Checks, before anything runs, that PROGRAM is something snag can run: it
// exists (after a PATH lookup like the shell's), is executable, is an ELF
// file, and was built with snag-cc/snag-c++ (its ELF file has the runtime's
// `snag_runtime` section, docs/site-table.md). Each failure is a one-line
// UsageError, so a typo or a wrong binary never turns into a confusing run.
#pragma once

#include <string>

namespace snag::cli {

inline constexpr const char *kRuntimeSection = "snag_runtime";

// The path to execute for `name`: `name` itself when it contains a slash,
// otherwise the first executable file called `name` in $PATH.
// Throws UsageError ("no such program: X", "X is not executable", ...).
std::string find_program(const std::string &name);

// Checks the file at `path` (as returned by find_program). Throws UsageError.
void check_snag_program(const std::string &path);

// find_program + check_snag_program.
std::string resolve_program(const std::string &name);

}  // namespace snag::cli
