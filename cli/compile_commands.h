// Reading a compilation database (compile_commands.json, as CMake, Bear and
// Meson write it) for `snag check -p BUILD_DIR`: which translation units
// exist, with which flags, and which target each belongs to.
//
// Only what changes the meaning of the source is kept: the compiler, the
// source itself, -c, -o FILE, dependency-file flags (-M...), sanitizers and
// snag's own -fsnag-* flags are dropped, since snag check compiles to bitcode
// with flags of its own.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace snag::cli {

// A compilation database that cannot be used: one line saying where and why.
class CompileDatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CompileCommand {
  std::string directory;           // where the compiler ran (absolute when the database says so)
  std::string file;                // the source, joined to `directory` when relative
  std::vector<std::string> flags;  // the flags that matter, in order
  // The build target the object belongs to, from CMake's
  // "CMakeFiles/<target>.dir/" or Meson's "<target>.p/" in the output path,
  // or the program itself when one command compiled and linked several
  // sources; empty when the database does not tell.
  std::string target;
};

// Splits a command as a POSIX shell would (blanks, '...', "...", backslash),
// without expansions; std::nullopt for an unterminated quote.
std::optional<std::vector<std::string>> split_shell_words(std::string_view command);

// The flags of one compiler invocation that snag check passes on to clang:
// `arguments` without argv[0]; `source` is the entry's "file" as written.
std::vector<std::string> meaningful_flags(const std::vector<std::string> &arguments,
                                          const std::string &source);

// The target an output path belongs to, or empty.
std::string target_of_output(const std::string &output);

// Parses the text of a compile_commands.json. `name` names it in errors.
// Throws CompileDatabaseError for anything that is not an array of entries
// with "directory", "file" and "command" or "arguments".
std::vector<CompileCommand> parse_compile_commands(std::string_view text, const std::string &name);

// Reads BUILD_DIR/compile_commands.json (or the file itself when given one).
std::vector<CompileCommand> read_compile_commands(const std::string &build_dir);

}  // namespace snag::cli
