// Compiler-style diagnostics, the text format of `snag check`: one line per
// finding in the shape clang and GCC use, so editors, CI log parsers and
// `make`'s error navigation pick them up, and a `note:` line for every other
// side and for where each thread involved was created:
//
//   a.cc:12:7: warning: data race on 'counter' (write by thread T1) [snag-check-race]
//   a.cc:20:3: note: conflicting read by main thread
//   a.cc:30:15: note: thread T1 created here
//
// then the summary line every text report ends with.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/finding.h"

namespace snag::report {

struct DiagnosticOptions {
  bool color = false;  // clang's colors: bold locations, magenta warnings, cyan notes
  // Files under this directory are shown relative to it, as a compiler shows
  // the paths it was given (empty: every path as the finding has it).
  std::string relative_to;
};

// The bracketed name after the message: "snag-<engine>-<kind>", with
// "data-race" shortened to "race" ("snag-check-race", "snag-check-deadlock").
std::string diagnostic_rule_name(const Finding &finding);

void write_diagnostic(std::ostream &out, const Finding &finding, const DiagnosticOptions &options);

// Every finding's diagnostic, then the summary line ("snag: no findings").
void write_diagnostics(std::ostream &out, const std::vector<Finding> &findings,
                       const DiagnosticOptions &options);

}  // namespace snag::report
