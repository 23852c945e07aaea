// Running the program under test: in its own process group (so a timeout or
// a forwarded signal reaches every process it started), with stdin, stdout
// and stderr inherited, and with SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to snag
// forwarded to it, so that snag itself survives to report what was found.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace snag::cli {

struct RunRequest {
  std::string path;                  // the executable
  std::vector<std::string> argv;     // argv[0] included
  std::vector<std::string> environment;  // "KEY=VALUE" entries
  std::optional<double> timeout_seconds;
};

struct RunResult {
  pid_t pid = 0;
  bool signaled = false;  // ended by a signal
  int exit_status = 0;    // when !signaled
  int signal = 0;         // when signaled
  bool timed_out = false;  // snag killed it after the timeout

  // The status a shell would report: exit status, or 128+signal.
  int shell_status() const { return signaled ? 128 + signal : exit_status; }
};

// Runs the program and waits for it. Throws std::runtime_error when it cannot
// be started at all (fork or exec failed); a program that starts and then
// fails in any way is a normal RunResult.
RunResult run_program(const RunRequest &request);

// "SIGSEGV (11)".
std::string describe_signal(int signal);

// The current environment with `name` set to `value`.
std::vector<std::string> environment_with(const std::string &name, const std::string &value);

}  // namespace snag::cli
