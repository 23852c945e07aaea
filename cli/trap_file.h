// The tsv engine's trap file as the command sees it (docs/tsv.md): where it
// lives by default, and whether an existing one can be handed to the
// runtime. The runtime reads and writes the file itself; the command makes
// sure it only ever meets a well-formed one of this program, replacing a
// corrupt or foreign file with a one-line warning instead of failing.
#pragma once

#include <optional>
#include <string>

namespace snag::cli {

// `PROGRAM.snag-traps` next to the program, or in the current directory
// when the program's directory cannot be written.
std::string default_trap_file(const std::string &program_path);

// Why `text` is not a trap file of the program named `program` (a file
// name, no directory), or nothing when it is one.
std::optional<std::string> trap_file_problem(const std::string &text, const std::string &program);

// Checks the file at `path` for `program_path`: a missing file is fine; a
// corrupt or foreign one is removed with a warning. Throws UsageError when
// `path` is a directory or cannot be read.
void prepare_trap_file(const std::string &path, const std::string &program_path);

}  // namespace snag::cli
