// What a compiler command line asks for, as far as the wrapper must know:
// does it link, does it build a shared library, and which of the arguments
// are the wrapper's own (-fsnag-...) rather than clang's.
#pragma once

#include <string>
#include <vector>

namespace snag::wrapper {

struct CommandLine {
  std::vector<std::string> clang_args;   // passed to clang unchanged, in order
  bool links = true;                     // no -c, -S, -E, -fsyntax-only, -M/-MM
  bool shared = false;                   // -shared
  bool partial_link = false;             // -r: an object file, not a program
  bool is_static = false;                // -static, --static, -static-pie
  bool has_debug_flag = false;           // a -g option choosing a debug level
  bool has_inputs = false;               // at least one non-option argument
  bool info_only = false;                // --version, -v alone, -print-*, -###, --help
  std::vector<std::string> api_tables;   // -fsnag-api-table=FILE
  std::string instrument;                // -fsnag-instrument=LIST
  std::string invariants;                // -fsnag-invariants=FILE (guard builds)
  int bias = 0;                          // -fsnag-bias=N (guard builds; 0: none)
  std::vector<std::string> ignore_lists; // -fsanitize-ignorelist=FILE (or -blacklist=)
  bool verbose = false;                  // -fsnag-verbose
};

// Parses the arguments after argv[0]. Response files (@file) are read to
// classify the command but are passed to clang as they are. Throws
// std::runtime_error with a one-line message on a malformed wrapper option or
// an unreadable response file.
CommandLine parse_command_line(const std::vector<std::string> &args);

// Splits a response file's text the way GCC and clang do: whitespace
// separates, single and double quotes group, backslash escapes.
std::vector<std::string> split_response_file(const std::string &text);

}  // namespace snag::wrapper
