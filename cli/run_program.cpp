#include "run_program.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>

extern char **environ;

namespace snag::cli {

namespace {

using Clock = std::chrono::steady_clock;

// After the timeout the program gets SIGTERM (so an engine can still save a
// replay file), then SIGKILL if it is still there after this grace period.
constexpr std::chrono::seconds kKillGrace{2};

// Signals snag waits for synchronously while the program runs. SIGTTOU is
// only blocked, so that handing the terminal back and forth cannot stop us.
sigset_t waited_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTTOU}) sigaddset(&set, s);
  return set;
}

bool is_forwarded(int signal) {
  return signal == SIGINT || signal == SIGTERM || signal == SIGHUP || signal == SIGQUIT;
}

// When snag runs in the foreground of a terminal, the program's new process
// group must become the terminal's foreground group: otherwise it would be
// stopped when it reads from the terminal, and Ctrl-C would not reach it.
bool owns_terminal() {
  return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
}

// The program was stopped (Ctrl-Z) while it had the terminal: stop snag too,
// so the shell sees its job stopped, and when the shell continues us,
// continue the program, giving it the terminal back if we are in the
// foreground again (`fg`, not `bg`).
void follow_stopped_program(pid_t pid) {
  tcsetpgrp(STDIN_FILENO, getpgrp());
  kill(getpid(), SIGSTOP);
  if (tcgetpgrp(STDIN_FILENO) == getpgrp()) tcsetpgrp(STDIN_FILENO, pid);
  kill(-pid, SIGCONT);
}

std::vector<char *> c_strings(const std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (const std::string &s : strings) out.push_back(const_cast<char *>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// Runs in the child between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_child(const RunRequest &request, char *const *argv, char *const *envp,
                             const sigset_t &original_mask, bool take_terminal, int error_pipe) {
  setpgid(0, 0);
  if (take_terminal) tcsetpgrp(STDIN_FILENO, getpid());
  sigprocmask(SIG_SETMASK, &original_mask, nullptr);
  execve(request.path.c_str(), argv, envp);
  int error = errno;
  (void)!write(error_pipe, &error, sizeof error);
  _exit(127);
}

timespec to_timespec(Clock::duration d) {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  if (ns < 0) ns = 0;
  return timespec{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
}

}  // namespace

std::string describe_signal(int signal) {
  const char *abbrev = sigabbrev_np(signal);
  std::string name = abbrev ? std::string("SIG") + abbrev : "signal";
  return name + " (" + std::to_string(signal) + ")";
}

std::vector<std::string> environment_with(const std::string &name, const std::string &value) {
  std::vector<std::string> out;
  std::string prefix = name + "=";
  for (char **e = environ; e && *e; ++e) {
    if (std::string_view(*e).starts_with(prefix)) continue;
    out.emplace_back(*e);
  }
  out.push_back(prefix + value);
  return out;
}

RunResult run_program(const RunRequest &request) {
  std::vector<char *> argv = c_strings(request.argv);
  std::vector<char *> envp = c_strings(request.environment);

  // If snag was started with SIGCHLD ignored, children would be reaped
  // automatically and we could not learn how the program ended.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  struct sigaction old_chld {};
  sigaction(SIGCHLD, &default_action, &old_chld);

  sigset_t waited = waited_signals();
  sigset_t original_mask;
  sigprocmask(SIG_BLOCK, &waited, &original_mask);

  // A close-on-exec pipe tells us whether exec succeeded: it closes without
  // data on success and carries errno on failure.
  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    sigprocmask(SIG_SETMASK, &original_mask, nullptr);
    sigaction(SIGCHLD, &old_chld, nullptr);
    throw std::runtime_error(std::string("cannot create a pipe: ") + strerror(errno));
  }

  bool take_terminal = owns_terminal();
  pid_t pid = fork();
  if (pid < 0) {
    int error = errno;
    close(error_pipe[0]);
    close(error_pipe[1]);
    sigprocmask(SIG_SETMASK, &original_mask, nullptr);
    sigaction(SIGCHLD, &old_chld, nullptr);
    throw std::runtime_error(std::string("cannot start the program: ") + strerror(error));
  }
  if (pid == 0) exec_child(request, argv.data(), envp.data(), original_mask, take_terminal, error_pipe[1]);

  // Also from the parent, so the group exists before we signal it, whichever
  // of the two runs first.
  setpgid(pid, pid);
  close(error_pipe[1]);
  int exec_error = 0;
  ssize_t got;
  do {
    got = read(error_pipe[0], &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  close(error_pipe[0]);

  RunResult result;
  result.pid = pid;
  int status = 0;

  std::optional<Clock::time_point> deadline;
  if (request.timeout_seconds) {
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(*request.timeout_seconds));
  }
  bool killed = false;

  while (true) {
    siginfo_t info;
    int signal;
    if (deadline) {
      timespec wait = to_timespec(*deadline - Clock::now());
      signal = sigtimedwait(&waited, &info, &wait);
    } else {
      signal = sigwaitinfo(&waited, &info);
    }
    if (signal < 0 && errno == EAGAIN) {
      // The deadline passed: first SIGTERM, then, after the grace, SIGKILL.
      result.timed_out = true;
      kill(-pid, killed ? SIGKILL : SIGTERM);
      deadline = killed ? std::nullopt : std::optional(Clock::now() + kKillGrace);
      killed = true;
      continue;
    }
    if (signal < 0) continue;  // EINTR
    if (is_forwarded(signal)) {
      kill(-pid, signal);
      continue;
    }
    if (signal != SIGCHLD) continue;
    // One SIGCHLD may stand for several changes (a stop, then the exit).
    bool ended = false;
    while (!ended && waitpid(pid, &status, WNOHANG | WUNTRACED) == pid) {
      if (!WIFSTOPPED(status)) ended = true;
      else if (take_terminal) follow_stopped_program(pid);
    }
    if (ended) break;
  }

  // Take the terminal back before anything else prints to it.
  if (take_terminal) tcsetpgrp(STDIN_FILENO, getpgrp());
  // Drop signals that arrived too late to forward, so unblocking them does
  // not kill snag before it reports.
  timespec zero{0, 0};
  while (sigtimedwait(&waited, nullptr, &zero) > 0) {
  }
  sigprocmask(SIG_SETMASK, &original_mask, nullptr);
  sigaction(SIGCHLD, &old_chld, nullptr);

  if (got == sizeof exec_error) {
    throw std::runtime_error("cannot run " + request.path + ": " + strerror(exec_error));
  }
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.signal = WTERMSIG(status);
  } else {
    result.exit_status = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace snag::cli
