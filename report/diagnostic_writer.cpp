#include "report/diagnostic_writer.h"

#include "report/summary.h"

namespace snag::report {

namespace {

class Style {
 public:
  explicit Style(bool on) : on_(on) {}
  std::string location(const std::string &s) const { return wrap("\033[1m", s); }
  std::string severity(const std::string &s) const {
    if (s == "error") return wrap("\033[1m\033[31m", s + ":");
    if (s == "note") return note();
    return wrap("\033[1m\033[35m", s + ":");
  }
  std::string note() const { return wrap("\033[1m\033[36m", "note:"); }

 private:
  std::string wrap(const char *code, const std::string &s) const {
    return on_ ? code + s + "\033[0m" : s;
  }
  bool on_;
};

// "file:line:col", or the function when only that is known, or the tool's
// name, as compilers do for diagnostics without a location.
std::string where(const Frame *frame, const std::string &relative_to) {
  if (!frame) return "snag";
  if (frame->has_location()) {
    std::string location = frame->location();
    if (!relative_to.empty()) {
      std::string prefix = relative_to.back() == '/' ? relative_to : relative_to + "/";
      if (location.rfind(prefix, 0) == 0) location.erase(0, prefix.size());
    }
    return location;
  }
  if (!frame->function.empty()) return frame->function;
  return "snag";
}

std::string severity_of(const Finding &finding) {
  if (finding.severity == "error" || finding.severity == "note") return finding.severity;
  return "warning";
}

}  // namespace

std::string diagnostic_rule_name(const Finding &finding) {
  std::string kind = finding.kind == "data-race" ? "race" : finding.kind;
  return "snag-" + finding.engine + "-" + kind;
}

void write_diagnostic(std::ostream &out, const Finding &finding, const DiagnosticOptions &options) {
  Style style(options.color);
  std::string message = finding.message.empty() ? finding.display_title() : finding.message;
  const Side *first = finding.sides.empty() ? nullptr : &finding.sides.front();
  if (first && !first->description.empty()) message += " (" + first->description + ")";
  out << style.location(where(finding.primary_frame(), options.relative_to) + ":") << ' ' << style.severity(severity_of(finding))
      << ' ' << message << " [" << diagnostic_rule_name(finding) << "]";
  if (finding.count > 1) out << " (reported " << finding.count << " times)";
  out << '\n';

  for (size_t i = 1; i < finding.sides.size(); ++i) {
    const Side &side = finding.sides[i];
    out << style.location(where(side_primary_frame(side), options.relative_to) + ":") << ' ' << style.note() << ' '
        << (side.description.empty() ? "other side" : side.description) << '\n';
  }
  for (const ThreadInfo &thread : finding.threads) {
    if (thread.stack.empty()) continue;  // the main thread, or a creation nobody saw
    out << style.location(where(&thread.stack.front(), options.relative_to) + ":") << ' ' << style.note() << " thread "
        << thread.display_name() << " created here\n";
  }
}

void write_diagnostics(std::ostream &out, const std::vector<Finding> &findings,
                       const DiagnosticOptions &options) {
  for (const Finding &finding : findings) write_diagnostic(out, finding, options);
  out << summary_line(findings) << '\n';
}

}  // namespace snag::report
