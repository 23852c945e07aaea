// How the `snag` command talks about itself: every message is one line on
// stderr starting with "snag: ", so it stands out from the program's output
// and scripts can grep for it.
#pragma once

#include <stdexcept>
#include <string>

namespace snag::cli {

// Exit status for usage errors and for programs snag cannot run, as in most
// command-line tools (and distinct from 66, "findings").
inline constexpr int kUsageExitStatus = 2;

// A mistake in how snag was invoked (unknown option, missing program, a file
// that is not a snag-built binary, ...). main() prints it and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void print_error(const std::string &message);    // "snag: <message>"
void print_warning(const std::string &message);  // "snag: warning: <message>"
void print_note(const std::string &message);     // "snag: <message>"
// "snag <command>: <message>": what `snag explore` and `snag replay` say
// about their own outcome, after the report.
void print_command_note(const std::string &command, const std::string &message);

// `word` as the shell would need it in a command to copy and paste: as is
// when it is made of safe characters, else in single quotes.
std::string shell_quote(const std::string &word);

// Folds a possibly multi-line message into one line.
std::string one_line(std::string message);

}  // namespace snag::cli
