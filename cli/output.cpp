#include "output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "diagnostics.h"
#include "report/json_writer.h"
#include "report/sarif_writer.h"
#include "report/text_writer.h"

namespace snag::cli {

Format parse_format(const std::string &name) {
  if (name == "json") return Format::kJson;
  if (name == "sarif") return Format::kSarif;
  return Format::kText;
}

Destination::Destination(const std::string &path, std::ostream &fallback, int fallback_fd)
    : fallback_(fallback), fallback_fd_(fallback_fd) {
  if (path.empty()) return;
  file_.open(path, std::ios::out | std::ios::trunc);
  if (!file_) throw UsageError("cannot write " + path + ": " + std::strerror(errno));
}

bool Destination::is_terminal() const { return !file_.is_open() && isatty(fallback_fd_); }

Destination report_destination(const std::string &output, Format format) {
  if (format == Format::kText) return Destination(output, std::cerr, STDERR_FILENO);
  return Destination(output, std::cout, STDOUT_FILENO);
}

bool use_color(const std::string &mode, const Destination &destination) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char *no_color = std::getenv("NO_COLOR");  // https://no-color.org convention
  const char *term = std::getenv("TERM");
  if ((no_color && *no_color) || (term && std::strcmp(term, "dumb") == 0)) return false;
  return destination.is_terminal();
}

void write_report(std::ostream &out, Format format, const std::vector<report::Finding> &findings,
                  const report::RunInfo &run, bool color) {
  switch (format) {
    case Format::kText:
      report::write_text(out, findings, report::TextOptions{color});
      break;
    case Format::kJson:
      report::write_json(out, findings, run);
      break;
    case Format::kSarif:
      report::write_sarif(out, findings, run);
      break;
  }
  out.flush();
}

void present_report(Destination &out, Format format, const std::string &color_mode,
                    const std::vector<report::Finding> &findings, const report::RunInfo &run) {
  for (const std::string &warning : run.warnings) print_warning(warning);
  write_report(out.stream(), format, findings, run, use_color(color_mode, out));
  for (const std::string &note : run.notes) print_note(note);
}

}  // namespace snag::cli
