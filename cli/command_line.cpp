#include "command_line.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "diagnostics.h"
#include "report/version.h"

namespace snag::cli {

namespace {

// CLI11 derives the usage line from the options; ours has a fixed shape
// (`PROGRAM [ARGS...]` is not a CLI11 positional, see add_run_options).
class UsageFormatter : public CLI::Formatter {
 public:
  explicit UsageFormatter(std::string usage) : usage_(std::move(usage)) {}
  std::string make_usage(const CLI::App *, std::string) const override {
    return "Usage: " + usage_ + "\n";
  }

 private:
  std::string usage_;
};

constexpr const char *kReportOutputHelp =
    "write the report to FILE (default: text to stderr, json and sarif to stdout)";

std::string top_level_help() {
  std::string out = fmt::format(
      "snag {} - finds concurrency bugs in C and C++ programs built with snag-cc/snag-c++\n\n"
      "Usage: snag <engine> [OPTIONS] PROGRAM [ARGS...]\n"
      "       snag report [OPTIONS] FILE.jsonl\n"
      "       snag --help | --version\n\n"
      "Engines:\n",
      report::tool_version());
  for (const Engine &engine : engines()) {
    out += fmt::format("  {:<9} {}{}\n", engine.name, engine.summary,
                       engine.available ? "" : " (not in this build yet)");
  }
  out +=
      "\nRun 'snag <engine> --help' for the options of an engine. Options go before PROGRAM;\n"
      "everything after PROGRAM is passed to it unchanged.\n\n"
      "Exit status: 66 (see --exitcode) when something was found, otherwise the program's\n"
      "own status (128+N if signal N ended it); 2 when snag was used wrongly.\n";
  return out;
}

void add_report_options(CLI::App &app, Options &o, const std::string &output_help) {
  app.add_option("--format", o.format, "report format: text (default), json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->type_name("FORMAT");
  app.add_option("-o,--output", o.output, output_help)->type_name("FILE");
  app.add_option("--exitcode", o.exitcode, "exit status when something was found (default 66)")
      ->check(CLI::Range(0, 255))
      ->type_name("N");
  app.add_option("--color", o.color, "color the text report: auto (default), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN");
}

// CLI::PositiveNumber's message prints the largest double; say it plainly.
CLI::Validator positive_seconds() {
  return CLI::Validator(
      [](std::string &value) -> std::string {
        char *end = nullptr;
        double seconds = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !(seconds > 0) || !std::isfinite(seconds)) {
          return "expected a positive number of seconds, not '" + value + "'";
        }
        return {};
      },
      "");
}

// CLI11 alone would wrap "-1" around to 2^64-1.
CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string &value) -> std::string {
        uint64_t seed = 0;
        auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seed);
        if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
          return "expected a number from 0 to 18446744073709551615, not '" + value + "'";
        }
        return {};
      },
      "");
}

void add_run_options(CLI::App &app, Options &o, const std::string &output_help, uint64_t &seed,
                     double &timeout) {
  add_report_options(app, o, output_help);
  app.add_option("--seed", seed, "seed of every random choice, to repeat a run")
      ->check(seed_number())
      ->type_name("N");
  app.add_option("--timeout", timeout, "kill the program (and its process group) after SECONDS")
      ->check(positive_seconds())
      ->type_name("SECONDS");
  app.add_option("--keep-findings", o.keep_findings, "also keep the raw findings (JSON lines) in FILE")
      ->type_name("FILE");
  // Stop at the first positional: it is PROGRAM, and it and everything after
  // it (including options such as --help) belong to the program.
  app.prefix_command();
}

[[noreturn]] void parse_failure(const Engine &engine, const std::string &what) {
  throw UsageError(fmt::format("{}: {} (see 'snag {} --help')", engine.name, one_line(what), engine.name));
}

// Splits what CLI11 left over into PROGRAM and its arguments.
std::vector<std::string> take_command(const Engine &engine, std::vector<std::string> rest) {
  // CLI11 keeps a "--" that separated snag's options from PROGRAM.
  if (!rest.empty() && rest.front() == "--") rest.erase(rest.begin());
  else if (!rest.empty() && rest.front().size() > 1 && rest.front()[0] == '-') {
    // In prefix mode CLI11 passes unknown options through instead of failing.
    parse_failure(engine, "unknown option '" + rest.front() + "'");
  }
  if (rest.empty()) parse_failure(engine, "missing PROGRAM");
  return rest;
}

std::optional<CommandLine> parse_engine(const Engine &engine, int argc, const char *const *argv) {
  if (!engine.available) {
    throw UsageError(fmt::format("the '{}' engine is not part of this build yet", engine.name));
  }
  CommandLine result;
  result.engine = &engine;
  Options &o = result.options;

  std::string name = "snag " + std::string(engine.name);
  CLI::App app(std::string(engine.summary), name);
  uint64_t seed = 0;
  double timeout = 0;
  if (engine.mode == EngineMode::kReport) {
    app.formatter(std::make_shared<UsageFormatter>(name + " [OPTIONS] FILE.jsonl"));
    add_report_options(app, o, kReportOutputHelp);
    app.add_option("FILE", o.findings_file, "findings to render, as JSON lines ('-' for stdin)")
        ->required();
    app.add_option("--program", o.program_for_sites,
                   "resolve unresolved frames through the site table of BIN")
        ->type_name("BIN");
    app.footer(
        "Renders findings written by a program run alone with SNAG_OPTIONS=findings=FILE.\n"
        "Exit status: --exitcode when the file holds findings, 0 otherwise.");
  } else {
    app.formatter(std::make_shared<UsageFormatter>(name + " [OPTIONS] PROGRAM [ARGS...]"));
    add_run_options(app, o,
                    engine.mode == EngineMode::kEvents ? "write the event stream to FILE (default: stdout)"
                                                       : kReportOutputHelp,
                    seed, timeout);
    if (engine.name == "race") {
      app.add_option("--suppressions", o.suppressions,
                     "skip races matching FILE (ThreadSanitizer's syntax: race:, race_top:, "
                     "called_from_lib:, thread:)")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_flag("--halt-on-error", o.halt_on_error, "stop the program at the first race");
    }
    if (engine.mode == EngineMode::kEvents) {
      app.footer(
          "Prints the runtime's event stream (engine=record) to stdout, or to --output.\n"
          "Findings, if any, go to the report's default stream.");
    } else {
      app.footer("PROGRAM must be built with snag-cc/snag-c++. Everything after PROGRAM is passed to it.");
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    std::cout << app.help();
    return std::nullopt;
  } catch (const CLI::ParseError &e) {
    parse_failure(engine, e.what());
  }

  if (engine.mode != EngineMode::kReport) {
    if (app.count("--seed") > 0) o.seed = seed;
    if (app.count("--timeout") > 0) o.timeout_seconds = timeout;
    o.command = take_command(engine, app.remaining());
  }
  return result;
}

}  // namespace

std::optional<CommandLine> parse_command_line(int argc, const char *const *argv) {
  if (argc < 2) throw UsageError("missing engine (run 'snag --help' for the list)");
  std::string first = argv[1];
  if (first == "--help" || first == "-h") {
    std::cout << top_level_help();
    return std::nullopt;
  }
  if (first == "--version") {
    std::cout << "snag " << report::tool_version() << '\n';
    return std::nullopt;
  }
  if (first.starts_with('-')) {
    throw UsageError("unknown option '" + first + "' (run 'snag --help')");
  }
  const Engine *engine = find_engine(first);
  if (!engine) throw UsageError("unknown engine '" + first + "' (run 'snag --help' for the list)");
  // The engine's parser sees the engine name where a program name would be.
  return parse_engine(*engine, argc - 1, argv + 1);
}

}  // namespace snag::cli
