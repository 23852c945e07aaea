// Running the program under test: in its own process group (so a timeout or
// a forwarded signal reaches every process it started), with stdin, stdout
// and stderr inherited, and with SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to snag
// forwarded to it, so that snag itself survives to report what was found.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace snag::cli {

struct RunRequest {
  std::string path;                  // the executable
  std::vector<std::string> argv;     // argv[0] included
  std::vector<std::string> environment;  // "KEY=VALUE" entries
  std::optional<double> timeout_seconds;
  // personality(ADDR_NO_RANDOMIZE) before exec: heap, stack and library
  // addresses repeat from run to run, so a replayed schedule meets the same
  // addresses (and the same address-dependent decisions) as the recorded one.
  bool disable_aslr = false;
  bool null_stdin = false;   // stdin from /dev/null instead of inherited
  std::string stdin_path;    // else, when set: stdin from this file
  bool null_output = false;  // stdout and stderr to /dev/null instead of inherited
  std::string stdout_path;   // when set: stdout to this file (truncated), after null_output
  // The program's stdout goes to snag's stderr, keeping snag's stdout for a
  // machine-readable report.
  bool stdout_to_stderr = false;
  // After the program exits, how long to wait for processes it left behind
  // (in its process group) to end, so that their findings are reported too.
  double leftover_grace_seconds = 10;
};

struct RunResult {
  pid_t pid = 0;
  bool signaled = false;  // ended by a signal
  int exit_status = 0;    // when !signaled
  int signal = 0;         // when signaled
  bool timed_out = false;  // snag killed it after the timeout
  bool stopped = false;    // snag stopped it because the RunWatcher asked
  int forwarded_signal = 0;  // the last signal sent to snag (Ctrl-C, ...) and passed on to it
  bool leftovers = false;  // processes of the program still ran when snag stopped waiting

  // The status a shell would report: exit status, or 128+signal.
  int shell_status() const { return signaled ? 128 + signal : exit_status; }
};

// Runs the program and waits for it. Throws std::runtime_error when it cannot
// be started at all (fork or exec failed); a program that starts and then
// fails in any way is a normal RunResult.
RunResult run_program(const RunRequest &request);

// Called while run_programs waits: about every 50 ms and whenever one of the
// programs ends. Returns the indices of programs to stop (SIGTERM to their
// process groups, SIGKILL after a grace period); asking twice is harmless.
using RunWatcher = std::function<std::vector<size_t>()>;

// Runs several programs at once, each in its own process group, and waits
// for all of them; results are in the order of `requests`. Forwarded signals
// go to every program. Only a single program is given the terminal's
// foreground, so with several, give them `null_stdin` (a background process
// group reading the terminal would be stopped). Throws like run_program when
// one cannot be started, after stopping those already running.
std::vector<RunResult> run_programs(const std::vector<RunRequest> &requests,
                                    const RunWatcher &watch = {});

// "SIGSEGV (11)".
std::string describe_signal(int signal);

// The current environment with `name` set to `value`.
std::vector<std::string> environment_with(const std::string &name, const std::string &value);

}  // namespace snag::cli
