// Rendering the final findings in the format and place the user asked for.
#pragma once

#include <fstream>
#include <iosfwd>
#include <string>
#include <vector>

#include "report/finding.h"
#include "report/run_info.h"

namespace snag::cli {

enum class Format { kText, kJson, kSarif };

Format parse_format(const std::string &name);  // "text" | "json" | "sarif"

// Where output goes: the file named by --output, or a default stream (text
// reports to stderr like ThreadSanitizer's, machine formats to stdout so they
// can be piped).
class Destination {
 public:
  // Throws UsageError when `path` cannot be opened for writing.
  Destination(const std::string &path, std::ostream &fallback, int fallback_fd);
  std::ostream &stream() { return file_.is_open() ? file_ : fallback_; }
  bool is_terminal() const;

 private:
  std::ofstream file_;
  std::ostream &fallback_;
  int fallback_fd_;
};

// The report destination for a format when --output is not given.
Destination report_destination(const std::string &output, Format format);

// --color auto|always|never; auto means "on a terminal, unless NO_COLOR is set".
bool use_color(const std::string &mode, const Destination &destination);

void write_report(std::ostream &out, Format format, const std::vector<report::Finding> &findings,
                  const report::RunInfo &run, bool color);

// What a command that ran a program prints when it is done: the run's
// warnings, the report, then the run's notes (--color is `color_mode`).
void present_report(Destination &out, Format format, const std::string &color_mode,
                    const std::vector<report::Finding> &findings, const report::RunInfo &run);

}  // namespace snag::cli
