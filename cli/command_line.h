// Parsing `snag <engine> [options] PROGRAM [ARGS...]` and
// `snag report [options] FILE.jsonl`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines.h"

namespace snag::cli {

struct Options {
  // Common to every engine.
  std::string format = "text";  // text | json | sarif
  std::string output;           // --output FILE; empty: the format's default stream
  int exitcode = 66;            // status when something was found
  std::string color = "auto";   // auto | always | never

  // Engines that run a program.
  std::optional<uint64_t> seed;
  std::optional<double> timeout_seconds;
  std::string keep_findings;          // --keep-findings FILE
  std::vector<std::string> command;   // PROGRAM and its arguments, untouched

  // `snag race`.
  std::string suppressions;  // --suppressions FILE (ThreadSanitizer's syntax)
  bool halt_on_error = false;

  // `snag report`.
  std::string findings_file;
  std::string program_for_sites;  // --program BIN
};

struct CommandLine {
  const Engine *engine = nullptr;
  Options options;
};

// Parses the whole command line. Prints help or the version itself and
// returns std::nullopt for them; throws UsageError for every mistake.
std::optional<CommandLine> parse_command_line(int argc, const char *const *argv);

}  // namespace snag::cli
