// Helpers for the end-to-end tests: run a program built with snag, read the
// record engine's event lines, and find source lines by marker comments.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace snag::e2e {

struct EventLine {
  uint64_t seq = 0;
  int thread = -1;
  std::string kind;
  std::map<std::string, std::string> fields;  // addr, size, order, value, flags, ...
  std::string file;                           // from at=FILE:LINE:COL
  int line = 0;
  int column = 0;
  std::string function;  // after " in "

  bool has(const std::string &key) const { return fields.count(key) != 0; }
  uint64_t number(const std::string &key) const;  // 0 when absent
};

struct RunResult {
  int exit_status = -1;  // exit code, or 128 + signal
  std::string out;
  std::string err;
  std::vector<EventLine> events;
  std::vector<std::string> findings;  // raw JSON lines
};

std::string program_path(const std::string &name);
std::string source_path(const std::string &file);

// Runs `program` with SNAG_OPTIONS=engine=record plus `options`, collecting
// the events and any findings (JSON lines). Kills it after `timeout_seconds`.
RunResult run_recorded(const std::string &program, const std::string &options = "",
                       const std::vector<std::string> &args = {}, int timeout_seconds = 60);

// Runs any command with an environment addition; captures output.
RunResult run_command(const std::vector<std::string> &argv,
                      const std::vector<std::string> &extra_env = {}, int timeout_seconds = 60);

// The line of `source` (under programs/) holding "MARK:<marker>".
int marker_line(const std::string &source, const std::string &marker);

// Events of `kind`; those at a given source line.
std::vector<EventLine> of_kind(const std::vector<EventLine> &events, const std::string &kind);
std::vector<EventLine> at_line(const std::vector<EventLine> &events, const std::string &kind,
                               const std::string &source, int line);

}  // namespace snag::e2e
