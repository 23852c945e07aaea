#include "isolated_check.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "diagnostics.h"

namespace snag::cli {

namespace {

using nlohmann::json;

json site_json(const interp::SourceSite &site) {
  return {{"file", site.file}, {"line", site.line}, {"column", site.column}};
}

interp::SourceSite site_from(const json &j) {
  return {j.at("file").get<std::string>(), j.at("line").get<unsigned>(), j.at("column").get<unsigned>()};
}

// Writes everything or gives up; the parent sees a short document then.
void write_all(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

json check_result_to_json(const interp::CheckResult &result) {
  json findings = json::array();
  for (const interp::CheckFinding &f : result.findings) {
    json sides = json::array();
    for (const interp::FindingSide &s : f.sides)
      sides.push_back({{"site", site_json(s.site)}, {"thread", s.thread}, {"is_write", s.is_write},
                       {"function", s.function}});
    findings.push_back({{"kind", f.kind == interp::CheckFinding::Kind::kRace ? "race" : "deadlock"},
                        {"variable", f.variable},
                        {"entry", f.entry},
                        {"message", f.message},
                        {"sides", std::move(sides)}});
  }
  json notes = json::array();
  for (const interp::CheckNote &n : result.notes) notes.push_back({{"site", site_json(n.site)}, {"message", n.message}});
  return {{"findings", std::move(findings)}, {"notes", std::move(notes)}, {"steps", result.steps},
          {"runs", result.runs}, {"entries", result.entries}};
}

interp::CheckResult check_result_from_json(const json &j) {
  interp::CheckResult result;
  for (const json &f : j.at("findings")) {
    interp::CheckFinding finding;
    finding.kind = f.at("kind") == "race" ? interp::CheckFinding::Kind::kRace : interp::CheckFinding::Kind::kDeadlock;
    finding.variable = f.at("variable").get<std::string>();
    finding.entry = f.at("entry").get<std::string>();
    finding.message = f.at("message").get<std::string>();
    for (const json &s : f.at("sides"))
      finding.sides.push_back({site_from(s.at("site")), s.at("thread").get<std::string>(),
                               s.at("is_write").get<bool>(), s.at("function").get<std::string>()});
    result.findings.push_back(std::move(finding));
  }
  for (const json &n : j.at("notes")) result.notes.push_back({site_from(n.at("site")), n.at("message").get<std::string>()});
  result.steps = j.at("steps").get<uint64_t>();
  result.runs = j.at("runs").get<uint64_t>();
  result.entries = j.at("entries").get<std::vector<std::string>>();
  return result;
}

IsolatedCheck check_module_isolated(llvm::Module &module, const interp::CheckOptions &options,
                                    double timeout_seconds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    close(fds[0]);
    json message;
    try {
      message = {{"result", check_result_to_json(interp::CheckModule(module, options))}};
    } catch (const std::exception &e) {
      message = {{"no_entry", one_line(e.what())}};
    }
    write_all(fds[1], message.dump(-1, ' ', false, json::error_handler_t::replace));
    // No destructors, no atexit handlers: they belong to the parent.
    _exit(0);
  }
  close(fds[1]);

  std::string bytes;
  bool timed_out = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  IsolatedCheck outcome;
  if (timed_out) {
    outcome.failure = fmt::format("the interpreter did not finish in {:g} s and was stopped", timeout_seconds);
    return outcome;
  }
  if (WIFSIGNALED(status)) {
    outcome.failure = fmt::format("the interpreter crashed (signal {}, {})", WTERMSIG(status),
                                  strsignal(WTERMSIG(status)));
    return outcome;
  }
  try {
    json message = json::parse(bytes);
    if (message.contains("no_entry")) outcome.no_entry = message["no_entry"].get<std::string>();
    else outcome.result = check_result_from_json(message.at("result"));
  } catch (const json::exception &) {
    outcome.failure = fmt::format("the interpreter ended without a result (exit status {})",
                                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  return outcome;
}

}  // namespace snag::cli
