#include "check_findings.h"

#include <regex>

namespace snag::cli {

namespace {

report::Frame frame_of(const interp::FindingSide &side) {
  report::Frame frame;
  frame.function = side.function;
  frame.file = side.site.file;
  frame.line = side.site.line;
  frame.column = side.site.column;
  return frame;
}

// Threads are listed once per finding, with where they were created, like
// the runtime's findings list them.
void note_thread(report::Finding &finding, const ThreadDescription &thread) {
  if (!thread.id || finding.thread_info(*thread.id)) return;
  report::ThreadInfo info;
  info.id = *thread.id;
  if (*thread.id != 0) info.name = "T" + std::to_string(*thread.id);
  if (thread.created_at) {
    report::Frame frame;
    frame.file = thread.created_at->file;
    frame.line = thread.created_at->line;
    frame.column = thread.created_at->column;
    info.stack.push_back(std::move(frame));
  }
  finding.threads.push_back(std::move(info));
}

}  // namespace

ThreadDescription parse_thread_description(const std::string &text) {
  // "main thread" or "thread T<n>", then what the interpreter adds: where it
  // was started (the column is optional), or what it runs ("running
  // Counter::add()", for the threads of in-the-middle starts).
  static const std::regex shape(
      "^(main thread|thread T([0-9]{1,9}))(?: started at (.+?):([0-9]{1,9})(?::([0-9]{1,9}))?|( .+))?$");
  ThreadDescription thread;
  std::smatch match;
  if (!std::regex_match(text, match, shape)) {
    thread.name = text;
    return thread;
  }
  thread.name = std::string(match[1]) + (match[6].matched ? std::string(match[6]) : "");
  thread.id = match[2].matched ? std::stoll(match[2]) : 0;
  if (match[3].matched) {
    thread.created_at = interp::SourceSite{
        match[3], static_cast<unsigned>(std::stoul(match[4])),
        match[5].matched ? static_cast<unsigned>(std::stoul(match[5])) : 0u};
  }
  return thread;
}

report::Finding to_report_finding(const interp::CheckFinding &finding, uint64_t seed) {
  bool race = finding.kind == interp::CheckFinding::Kind::kRace;
  report::Finding out;
  out.engine = "check";
  out.kind = race ? "data-race" : "deadlock";
  out.title = race ? "data race" : "deadlock";
  out.severity = "warning";  // found without running: a warning, as a compiler would say
  out.seed = seed;
  out.message = finding.message;
  if (out.message.empty()) {
    out.message = race ? (finding.variable.empty() ? "data race" : "data race on '" + finding.variable + "'")
                       : "lock-order cycle (potential deadlock)";
  }
  nlohmann::json details = nlohmann::json::object();
  if (!finding.variable.empty()) details["variable"] = finding.variable;
  if (!finding.entry.empty()) details["entry"] = finding.entry;
  if (!details.empty()) out.details = std::move(details);

  for (size_t i = 0; i < finding.sides.size(); ++i) {
    const interp::FindingSide &side = finding.sides[i];
    ThreadDescription thread = parse_thread_description(side.thread);
    report::Side s;
    if (race) {
      s.role = i == 0 ? "current" : "previous";
      std::string access = side.is_write ? "write" : "read";
      s.description = (i == 0 ? access : "conflicting " + access) + " by " + thread.name;
    } else {
      s.role = "acquisition";
      s.description = "lock acquired by " + thread.name;
      if (!side.function.empty()) s.description += " in " + side.function;
    }
    s.thread = thread.id;
    s.stack.push_back(frame_of(side));
    out.sides.push_back(std::move(s));
    note_thread(out, thread);
  }
  return out;
}

}  // namespace snag::cli
