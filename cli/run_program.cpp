#include "run_program.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
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

// How often run_programs asks its RunWatcher whether to stop programs.
constexpr std::chrono::milliseconds kWatchInterval{50};

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
                             const sigset_t &original_mask, bool take_terminal, int error_pipe,
                             pid_t snag_pid) {
  // If snag dies (SIGKILL, a CI timeout), the program must not run on
  // unwatched; the check closes the window in which snag died before this.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != snag_pid) _exit(127);
  setpgid(0, 0);
  if (take_terminal) tcsetpgrp(STDIN_FILENO, getpid());
  sigprocmask(SIG_SETMASK, &original_mask, nullptr);
  if (request.disable_aslr) {
    // Best effort: where personality() is not allowed, addresses just vary.
    int current = personality(0xffffffff);
    if (current != -1) personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE);
  }
  if (request.null_stdin || request.null_output) {
    int null_fd = open("/dev/null", O_RDWR);
    if (null_fd >= 0) {
      if (request.null_stdin) dup2(null_fd, STDIN_FILENO);
      if (request.null_output) {
        dup2(null_fd, STDOUT_FILENO);
        dup2(null_fd, STDERR_FILENO);
      }
      if (null_fd > STDERR_FILENO) close(null_fd);
    }
  }
  if (!request.null_stdin && !request.stdin_path.empty()) {
    int in = open(request.stdin_path.c_str(), O_RDONLY);
    if (in >= 0 && in != STDIN_FILENO) {
      dup2(in, STDIN_FILENO);
      close(in);
    }
  }
  if (request.stdout_to_stderr && !request.null_output) dup2(STDERR_FILENO, STDOUT_FILENO);
  if (!request.stdout_path.empty()) {
    int out = open(request.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out >= 0 && out != STDOUT_FILENO) {
      dup2(out, STDOUT_FILENO);
      close(out);
    }
  }
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

// While programs run, snag takes SIGCHLD and the forwarded signals
// synchronously (sigtimedwait); this puts back what was there before.
class WaitedSignals {
 public:
  WaitedSignals() : set_(waited_signals()) {
    // If snag was started with SIGCHLD ignored, children would be reaped
    // automatically and we could not learn how the program ended.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(SIGCHLD, &default_action, &old_chld_);
    sigprocmask(SIG_BLOCK, &set_, &original_mask_);
  }
  ~WaitedSignals() {
    // Drop signals that arrived too late to forward, so unblocking them does
    // not kill snag before it reports.
    timespec zero{0, 0};
    while (sigtimedwait(&set_, nullptr, &zero) > 0) {
    }
    sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
    sigaction(SIGCHLD, &old_chld_, nullptr);
  }
  WaitedSignals(const WaitedSignals &) = delete;
  WaitedSignals &operator=(const WaitedSignals &) = delete;

  const sigset_t &set() const { return set_; }
  const sigset_t &original_mask() const { return original_mask_; }

 private:
  sigset_t set_;
  sigset_t original_mask_;
  struct sigaction old_chld_ {};
};

// Forks and execs one program. Returns its pid; `exec_error` is the errno of
// a failed exec (the child has then exited with 127 and must still be reaped).
pid_t start_program(const RunRequest &request, const WaitedSignals &signals, bool take_terminal,
                    int &exec_error) {
  std::vector<char *> argv = c_strings(request.argv);
  std::vector<char *> envp = c_strings(request.environment);
  // A close-on-exec pipe tells us whether exec succeeded: it closes without
  // data on success and carries errno on failure.
  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot create a pipe: ") + strerror(errno));
  }
  pid_t snag_pid = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int error = errno;
    close(error_pipe[0]);
    close(error_pipe[1]);
    throw std::runtime_error(std::string("cannot start the program: ") + strerror(error));
  }
  if (pid == 0) {
    exec_child(request, argv.data(), envp.data(), signals.original_mask(), take_terminal,
               error_pipe[1], snag_pid);
  }
  // Also from the parent, so the group exists before we signal it, whichever
  // of the two runs first.
  setpgid(pid, pid);
  close(error_pipe[1]);
  exec_error = 0;
  ssize_t got;
  do {
    got = read(error_pipe[0], &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  close(error_pipe[0]);
  if (got != sizeof exec_error) exec_error = 0;
  return pid;
}

// One running program and what snag has done to it so far.
struct Child {
  pid_t pid = 0;
  bool ended = false;
  int status = 0;
  bool term_sent = false;  // SIGTERM sent (timeout or stop); SIGKILL comes next
  std::optional<Clock::time_point> deadline;  // when to send the next signal
  RunResult result;
};

// The timeout or the grace after SIGTERM passed: first SIGTERM (so an engine
// can still write what it found), then SIGKILL.
void escalate(Child &child, Clock::time_point now) {
  if (!child.term_sent) {
    child.result.timed_out = true;
    kill(-child.pid, SIGTERM);
    child.term_sent = true;
    child.deadline = now + kKillGrace;
  } else {
    kill(-child.pid, SIGKILL);
    child.deadline.reset();
  }
}

void stop(Child &child, Clock::time_point now) {
  if (child.ended || child.term_sent) return;
  child.result.stopped = true;
  kill(-child.pid, SIGTERM);
  child.term_sent = true;
  child.deadline = now + kKillGrace;
}

// Processes the program left behind (a daemonized child, a worker it did
// not wait for) still belong to its process group. snag is their subreaper,
// so they are reparented to it and reaped here; it waits for the group to
// empty, up to `grace` seconds, so their findings reach the report. Returns
// whether some were still there at the end.
bool wait_for_leftovers(pid_t group, double grace) {
  Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(grace));
  for (;;) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (kill(-group, 0) != 0) return false;
    if (Clock::now() >= deadline) return true;
    timespec pause{0, 20 * 1000 * 1000};
    nanosleep(&pause, nullptr);
  }
}

// Collects the children that ended; returns how many did.
size_t reap(std::vector<Child> &children, bool take_terminal) {
  size_t ended = 0;
  for (Child &child : children) {
    if (child.ended) continue;
    // One SIGCHLD may stand for several changes (a stop, then the exit).
    int status = 0;
    while (waitpid(child.pid, &status, WNOHANG | WUNTRACED) == child.pid) {
      if (!WIFSTOPPED(status)) {
        child.ended = true;
        child.status = status;
        ++ended;
        break;
      }
      if (take_terminal) follow_stopped_program(child.pid);
    }
  }
  return ended;
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

RunResult run_program(const RunRequest &request) { return run_programs({request}).front(); }

std::vector<RunResult> run_programs(const std::vector<RunRequest> &requests,
                                    const RunWatcher &watch) {
  WaitedSignals signals;
  // Orphans of the programs are reparented to snag (see wait_for_leftovers).
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  bool take_terminal = requests.size() == 1 && owns_terminal();
  std::vector<Child> children;
  children.reserve(requests.size());

  std::string start_error;
  for (const RunRequest &request : requests) {
    int exec_error = 0;
    pid_t pid = 0;
    try {
      pid = start_program(request, signals, take_terminal, exec_error);
    } catch (const std::runtime_error &e) {
      start_error = e.what();
      break;
    }
    Child &child = children.emplace_back();
    child.pid = pid;
    child.result.pid = pid;
    if (exec_error != 0) {
      start_error = "cannot run " + request.path + ": " + strerror(exec_error);
      break;
    }
    if (request.timeout_seconds) {
      child.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(*request.timeout_seconds));
    }
  }
  if (!start_error.empty()) {
    for (Child &child : children) {
      kill(-child.pid, SIGKILL);
      waitpid(child.pid, nullptr, 0);
    }
    if (take_terminal) tcsetpgrp(STDIN_FILENO, getpgrp());
    throw std::runtime_error(start_error);
  }

  size_t running = children.size();
  Clock::time_point next_watch = Clock::now() + kWatchInterval;
  while (running > 0) {
    std::optional<Clock::time_point> wake;
    for (const Child &child : children) {
      if (!child.ended && child.deadline && (!wake || *child.deadline < *wake)) {
        wake = child.deadline;
      }
    }
    if (watch && (!wake || next_watch < *wake)) wake = next_watch;

    siginfo_t info;
    int signal;
    if (wake) {
      timespec wait = to_timespec(*wake - Clock::now());
      signal = sigtimedwait(&signals.set(), &info, &wait);
    } else {
      signal = sigwaitinfo(&signals.set(), &info);
    }

    size_t ended = 0;
    if (signal == SIGCHLD) {
      ended = reap(children, take_terminal);
      running -= ended;
    } else if (signal > 0 && is_forwarded(signal)) {
      for (Child &child : children) {
        if (child.ended) continue;
        kill(-child.pid, signal);
        child.result.forwarded_signal = signal;
      }
    }

    Clock::time_point now = Clock::now();
    for (Child &child : children) {
      if (!child.ended && child.deadline && *child.deadline <= now) escalate(child, now);
    }
    if (watch && running > 0 && (ended > 0 || now >= next_watch)) {
      for (size_t index : watch()) {
        if (index < children.size()) stop(children[index], now);
      }
      next_watch = now + kWatchInterval;
    }
  }

  // Take the terminal back before anything else prints to it.
  if (take_terminal) tcsetpgrp(STDIN_FILENO, getpgrp());

  std::vector<RunResult> results;
  for (size_t i = 0; i < children.size(); ++i) {
    Child &child = children[i];
    RunResult &result = child.result;
    // A program that was killed or stopped takes its group with it.
    if (!result.timed_out && !result.stopped)
      result.leftovers = wait_for_leftovers(child.pid, requests[i].leftover_grace_seconds);
    if (WIFSIGNALED(child.status)) {
      result.signaled = true;
      result.signal = WTERMSIG(child.status);
    } else {
      result.exit_status = WEXITSTATUS(child.status);
    }
    results.push_back(result);
  }
  return results;
}

}  // namespace snag::cli
