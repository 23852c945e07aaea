#include "e2e_support.h"

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace snag::e2e {

namespace {

std::string read_file(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_path(const char *stem) {
  std::string tmpl = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/" + stem + "XXXXXX";
  int fd = mkstemp(tmpl.data());
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  return tmpl;
}

bool ends_with(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

EventLine parse_event(const std::string &line) {
  EventLine e;
  std::string rest = line;
  size_t in = rest.find(" in ");
  if (in != std::string::npos) {
    e.function = rest.substr(in + 4);
    rest = rest.substr(0, in);
  }
  std::istringstream words(rest);
  std::string thread;
  words >> e.seq >> thread >> e.kind;
  if (thread.size() > 1) e.thread = std::stoi(thread.substr(1));
  std::string word;
  while (words >> word) {
    size_t eq = word.find('=');
    if (eq == std::string::npos) continue;
    std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "at") {
      // FILE:LINE:COL, the file itself may contain ':'.
      size_t c2 = value.rfind(':');
      size_t c1 = value.rfind(':', c2 - 1);
      e.file = value.substr(0, c1);
      e.line = std::stoi(value.substr(c1 + 1, c2 - c1 - 1));
      e.column = std::stoi(value.substr(c2 + 1));
    } else {
      e.fields[key] = value;
    }
  }
  return e;
}

}  // namespace

uint64_t EventLine::number(const std::string &key) const {
  auto it = fields.find(key);
  if (it == fields.end()) return 0;  // the record engine leaves zero values out
  return std::stoull(it->second, nullptr, 0);
}

std::string program_path(const std::string &name) { return std::string(SNAG_E2E_PROGRAM_DIR) + "/" + name; }

std::string source_path(const std::string &file) { return std::string(SNAG_E2E_SOURCE_DIR) + "/" + file; }

RunResult run_command(const std::vector<std::string> &argv, const std::vector<std::string> &extra_env,
                      int timeout_seconds) {
  std::string out_path = temp_path("snag_out"), err_path = temp_path("snag_err");
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    for (const std::string &kv : extra_env) putenv(const_cast<char *>(kv.c_str()));
    int out = open(out_path.c_str(), O_WRONLY | O_TRUNC);
    int err = open(err_path.c_str(), O_WRONLY | O_TRUNC);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  for (int waited_ms = 0;; waited_ms += 10) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (waited_ms > timeout_seconds * 1000) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(10000);
  }
  RunResult r;
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  unlink(out_path.c_str());
  unlink(err_path.c_str());
  return r;
}

RunResult run_recorded(const std::string &program, const std::string &options,
                       const std::vector<std::string> &args, int timeout_seconds) {
  std::string events_path = temp_path("snag_events"), findings_path = temp_path("snag_findings");
  std::string snag_options = "SNAG_OPTIONS=engine=record:events=" + events_path +
                             ":findings=" + findings_path + (options.empty() ? "" : ":" + options);
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult r = run_command(argv, {snag_options}, timeout_seconds);
  std::istringstream events(read_file(events_path));
  for (std::string line; std::getline(events, line);)
    if (!line.empty()) r.events.push_back(parse_event(line));
  std::istringstream findings(read_file(findings_path));
  for (std::string line; std::getline(findings, line);)
    if (!line.empty()) r.findings.push_back(line);
  unlink(events_path.c_str());
  unlink(findings_path.c_str());
  return r;
}

int marker_line(const std::string &source, const std::string &marker) {
  std::ifstream in(source_path(source));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("MARK:" + marker + " ") != std::string::npos ||
        ends_with(line, "MARK:" + marker) || line.find("MARK:" + marker + "*") != std::string::npos)
      return n;
  throw std::runtime_error("no marker " + marker + " in " + source);
}

std::vector<EventLine> of_kind(const std::vector<EventLine> &events, const std::string &kind) {
  std::vector<EventLine> out;
  for (const EventLine &e : events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

std::vector<EventLine> at_line(const std::vector<EventLine> &events, const std::string &kind,
                               const std::string &source, int line) {
  std::vector<EventLine> out;
  for (const EventLine &e : events)
    if (e.kind == kind && e.line == line && ends_with(e.file, "/" + source)) out.push_back(e);
  return out;
}

}  // namespace snag::e2e
