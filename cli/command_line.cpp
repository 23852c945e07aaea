#include "command_line.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "diagnostics.h"
#include "help_options.h"
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

// More workers than this would only make the machine thrash.
constexpr uint64_t kMaxJobs = 256;
// A sanity bound: PCT's chance of hitting a bug of depth d falls
// exponentially with d.
constexpr uint64_t kMaxPctDepth = 100;

constexpr const char *kReportOutputHelp =
    "write the report to FILE (default: text to stderr; json and sarif to stdout, the program's "
    "own output then going to stderr)";

std::string top_level_help() {
  std::string out = fmt::format(
      "snag {} - finds concurrency bugs in C and C++ programs built with snag-cc/snag-c++\n\n"
      "Usage: snag <engine> [OPTIONS] PROGRAM [ARGS...]\n"
      "       snag check [OPTIONS] [-p BUILD_DIR] [FILE...] [-- COMPILER FLAGS...]\n"
      "       snag replay [OPTIONS] REPLAY_FILE\n"
      "       snag report [OPTIONS] FILE.jsonl\n"
      "       snag merge [OPTIONS] FILE.json...\n"
      "       snag --help | --help-options | --version\n\n"
      "Engines:\n",
      report::tool_version());
  for (const Engine &engine : engines()) {
    out += fmt::format("  {:<9} {}{}\n", engine.name, engine.summary,
                       engine.available ? "" : " (not in this build yet)");
  }
  out +=
      "\nRun 'snag <engine> --help' for the options of an engine. Options go before PROGRAM;\n"
      "everything after PROGRAM is passed to it unchanged.\n\n"
      "Exit status: 128+N when signal N ended the program, else 66 (see --exitcode) when\n"
      "something was found, else the program's own status; 2 when snag was used wrongly.\n";
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

// A whole number from `min` to `max`. CLI11 alone would wrap "-1" around to
// 2^64-1.
CLI::Validator whole_number(uint64_t min, uint64_t max) {
  return CLI::Validator(
      [min, max](std::string &value) -> std::string {
        uint64_t n = 0;
        auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (value.empty() || error != std::errc() || end != value.data() + value.size() ||
            n < min || n > max) {
          if (max == std::numeric_limits<uint64_t>::max() && min > 0) {
            return fmt::format("expected a whole number of at least {}, not '{}'", min, value);
          }
          return fmt::format("expected a number from {} to {}, not '{}'", min, max, value);
        }
        return {};
      },
      "");
}

// "I/N" with 0 <= I < N: the part of the schedule indices this command runs.
bool parse_shard(const std::string &text, unsigned &index, unsigned &count) {
  size_t slash = text.find('/');
  if (slash == std::string::npos) return false;
  const char *begin = text.data(), *middle = begin + slash, *end = begin + text.size();
  auto [i_end, i_error] = std::from_chars(begin, middle, index);
  auto [n_end, n_error] = std::from_chars(middle + 1, end, count);
  return slash > 0 && i_error == std::errc() && i_end == middle && n_error == std::errc() &&
         n_end == end && index < count;
}

CLI::Validator shard_spec() {
  return CLI::Validator(
      [](std::string &value) -> std::string {
        unsigned index = 0, count = 0;
        if (!parse_shard(value, index, count)) {
          return "expected I/N with 0 <= I < N, such as 0/4, not '" + value + "'";
        }
        return {};
      },
      "");
}

void add_run_options(CLI::App &app, Options &o, const std::string &output_help, uint64_t &seed,
                     double &timeout) {
  add_report_options(app, o, output_help);
  app.add_option("--seed", seed, "seed of every random choice, to repeat a run")
      ->check(whole_number(0, std::numeric_limits<uint64_t>::max()))
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

// Values that have no natural "unset" value in Options; copied over after
// parsing when the option was given.
struct ParsedValues {
  uint64_t seed = 0;
  double timeout = 0;
  double time_limit = 0;
  double schedule_timeout = 0;
  uint64_t pct_depth = 0;
  std::string shard;
  uint64_t delay_ms = 0;
  uint64_t stall_ms = 0;
  uint64_t max_stall_ms = 0;
  uint64_t hold_ms = 0;
};

void add_guard_options(CLI::App &app, std::string_view name, Options &o, ParsedValues &v) {
  app.add_option("--invariants", o.invariants,
                 "the invariants file: what correct runs taught (learn merges into it)")
      ->required()
      ->type_name("FILE");
  if (name == "learn" || name == "expose") {
    app.add_option("--runs", o.runs, "run the program N times (default 1)")
        ->check(whole_number(1, 1000))
        ->type_name("N");
  }
  if (name == "learn") {
    app.add_flag("--relax", o.relax,
                 "check-only: report the violations of this correct run and add them to FILE");
  }
  if (name == "guard") {
    app.add_option("--stall-ms", v.stall_ms, "stall a violating access in steps of N ms (default 1)")
        ->check(whole_number(1, 1000))
        ->type_name("N");
    app.add_option("--max-stall-ms", v.max_stall_ms,
                   "stall one access at most N ms, then let it run (default 10; 0: only report)")
        ->check(whole_number(0, 60000))
        ->type_name("N");
  }
  if (name == "expose") {
    app.add_option("--hold-ms", v.hold_ms,
                   "hold a thread at a stall point at most N ms, waiting for the access it usually "
                   "follows (default 1000)")
        ->check(whole_number(1, 600000))
        ->type_name("N");
  }
}

void add_tsv_options(CLI::App &app, Options &o, ParsedValues &v) {
  app.add_option("--runs", o.runs,
                 "run the program N times, each run starting from the trap file the one before "
                 "left (default 1)")
      ->check(whole_number(1, 1000))
      ->type_name("N");
  app.add_option("--trap-file", o.trap_file,
                 "where the dangerous call pairs are kept between runs (default: "
                 "PROGRAM.snag-traps next to the program)")
      ->type_name("FILE");
  app.add_option("--delay-ms", v.delay_ms,
                 "how long a thread is held at a dangerous call (default 100)")
      ->check(whole_number(1, 60000))
      ->type_name("D");
}

void add_explore_options(CLI::App &app, Options &o, ParsedValues &v) {
  app.add_option("--strategy", o.strategy,
                 "how schedules are chosen: random, pct, delay-bound, preempt-bound, vb, pctvb, cover, "
                 "or portfolio (default: a mix of them)")
      ->check(CLI::IsMember(
          {"random", "pct", "delay-bound", "preempt-bound", "vb", "pctvb", "cover", "portfolio"}))
      ->type_name("S");
  app.add_option("--schedules", o.schedules, "run at most N schedules in all (default 1000)")
      ->check(whole_number(1, std::numeric_limits<uint64_t>::max()))
      ->type_name("N");
  app.add_option("--time-limit", v.time_limit, "stop exploring after SECONDS")
      ->check(positive_seconds())
      ->type_name("SECONDS");
  app.add_option("-j,--jobs", o.jobs,
                 "explore with N processes in parallel (default: one per CPU, at most 16)")
      ->check(whole_number(1, kMaxJobs))
      ->type_name("N");
  app.add_option("--shard", v.shard,
                 "explore only part I of N (0 <= I < N), to split one exploration between machines")
      ->check(shard_spec())
      ->type_name("I/N");
  app.add_option("--replay-out", o.replay_out,
                 "write the replay file of a failure to FILE (default: ./PROGRAM.snag-replay.json)")
      ->type_name("FILE");
  app.add_flag("--preempt-on-access", o.preempt_on_access,
               "make instrumented memory accesses scheduling points too (finds more, runs slower)");
  app.add_flag("--eager-threads", o.eager_threads,
               "create a new thread's kernel thread in pthread_create, not at its first turn "
               "(slower with many threads; see docs/explore.md)");
  app.add_option("--pct-depth", v.pct_depth, "bug depth D of the pct strategy (default 3)")
      ->check(whole_number(1, kMaxPctDepth))
      ->type_name("D");
  app.add_option("--max-steps", o.max_steps,
                 "scheduling steps after which a schedule stops: a livelock if nothing changes "
                 "any more, else incomplete (default 200000)")
      ->check(whole_number(1, std::numeric_limits<uint64_t>::max()))
      ->type_name("N");
  app.add_option("--schedule-timeout", v.schedule_timeout,
                 "stop a schedule as incomplete after SECONDS (default 10)")
      ->check(positive_seconds())
      ->type_name("SECONDS");
  app.add_flag("--with-race", o.with_race, "also look for data races in every schedule");
  app.add_flag("--no-race-points", o.no_race_points,
               "skip the race pass that makes racy accesses scheduling points");
  app.add_flag("--count-unreproducible", o.count_unreproducible,
               "count a failure that its replay does not reproduce as a bug (exit status)");
  app.add_flag("--compare-output", o.compare_output,
               "report a schedule whose standard output differs from schedule 0's");
  app.add_option("--compare-file", o.compare_files,
                 "also compare FILE, which the program writes (repeatable; implies "
                 "--compare-output)")
      ->type_name("FILE")
      ->allow_extra_args(false);
}

void add_check_options(CLI::App &app, Options &o, ParsedValues &v) {
  add_report_options(app, o,
                     "write the report to FILE (default: text to stderr like a compiler's "
                     "diagnostics; json and sarif to stdout)");
  app.add_option("FILE", o.check_files,
                 "C or C++ sources to check as one program; with -p, the translation units to "
                 "check (default: all)")
      ->type_name("FILE");
  app.add_option("-p,--build-dir", o.build_dir,
                 "check the translation units of BUILD_DIR/compile_commands.json with their own "
                 "flags, those of one target linked together")
      ->type_name("BUILD_DIR");
  app.add_option("--seed", v.seed, "seed of the interpreter's scheduler and its choices (default 4711)")
      ->check(whole_number(0, std::numeric_limits<uint64_t>::max()))
      ->type_name("N");
  app.add_option("--max-steps", o.check_max_steps,
                 "steps the interpreter may take per target, over all its runs (default 10000000)")
      ->check(whole_number(1, std::numeric_limits<uint64_t>::max()))
      ->type_name("N");
  app.add_option("-j,--jobs", o.jobs, "check N targets in parallel (default 1)")
      ->check(whole_number(1, kMaxJobs))
      ->type_name("N");
  app.add_option("--cache-dir", o.cache_dir,
                 "where compiled bitcode is kept between runs (default: "
                 "$XDG_CACHE_HOME/snag/check or ~/.cache/snag/check)")
      ->type_name("DIR");
  app.add_flag("--no-cache", o.no_cache, "compile every translation unit, keeping nothing");
  app.add_flag("-v,--verbose", o.verbose,
               "say what was compiled, what came from the cache, and how long each target took");
}

void add_replay_options(CLI::App &app, Options &o, ParsedValues &v) {
  add_report_options(app, o, kReportOutputHelp);
  app.add_option("REPLAY_FILE", o.replay_file, "a replay file written by 'snag explore'")
      ->required();
  CLI::Option *shrink = app.add_flag(
      "--shrink", o.shrink, "write a replay file with fewer preemptions that fails the same way");
  app.add_option("--replay-out", o.replay_out,
                 "where --shrink writes (default: REPLAY_FILE with .shrunk before .json)")
      ->needs(shrink)
      ->type_name("FILE");
  app.add_option("--timeout", v.timeout,
                 "stop the program (and its process group) after SECONDS (default 60)")
      ->check(positive_seconds())
      ->type_name("SECONDS");
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
  ParsedValues v;
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
  } else if (engine.mode == EngineMode::kMerge) {
    app.formatter(std::make_shared<UsageFormatter>(name + " [OPTIONS] FILE.json..."));
    add_report_options(app, o,
                       "write the merged report to FILE (default: text to stderr; json and sarif "
                       "to stdout)");
    app.add_option("FILE", o.merge_files,
                   "reports written with --format json, such as those of 'snag explore --shard "
                   "I/N' on each machine")
        ->required();
    app.footer(
        "Merges the findings of the reports (duplicates once, with the earliest schedule and\n"
        "its replay file) and the schedule counts of explore's shards into one report, and\n"
        "says which shards are missing. Exit status: --exitcode when the merged report has\n"
        "findings, 0 otherwise, 2 for unreadable, corrupt or mixed-program input.");
  } else if (engine.mode == EngineMode::kCheck) {
    app.formatter(std::make_shared<UsageFormatter>(
        name + " [OPTIONS] [-p BUILD_DIR] [FILE...] [-- COMPILER FLAGS...]"));
    add_check_options(app, o, v);
    app.footer(
        "Compiles the sources with clang 14 and interprets them many times under a seeded\n"
        "scheduler, without running the program, and reports data races and deadlocks as\n"
        "compiler-style warnings. Flags after '--' go to clang (-std=, -I, -D, ...).\n"
        "Exit status: --exitcode when something was found, 0 when not, 2 for bad input.");
    // Everything after "--" is the compiler's, even words CLI11 would take
    // for options or files.
    for (int i = 1; i < argc; ++i) {
      if (std::string_view(argv[i]) != "--") continue;
      o.compiler_flags.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  } else if (engine.mode == EngineMode::kReplay) {
    app.formatter(std::make_shared<UsageFormatter>(name + " [OPTIONS] REPLAY_FILE"));
    add_replay_options(app, o, v);
    app.footer(
        "Runs the program and arguments recorded in REPLAY_FILE under the recorded schedule.\n"
        "Exit status: --exitcode when the bug reproduced, 1 when it did not.");
    // The program and its arguments come from the replay file; anything
    // after "--" is accepted (so an explore command line can be edited into
    // a replay one) and ignored.
    for (int i = 1; i < argc; ++i) {
      if (std::string_view(argv[i]) != "--") continue;
      if (i + 1 < argc) {
        print_warning("replay ignores the arguments after '--': the program and its arguments "
                      "come from the replay file");
      }
      argc = i;
      break;
    }
  } else {
    app.formatter(std::make_shared<UsageFormatter>(name + " [OPTIONS] PROGRAM [ARGS...]"));
    add_run_options(app, o,
                    engine.mode == EngineMode::kEvents ? "write the event stream to FILE (default: stdout)"
                                                       : kReportOutputHelp,
                    v.seed, v.timeout);
    if (engine.name == "race") {
      app.add_option("--suppressions", o.suppressions,
                     "skip races matching FILE (ThreadSanitizer's syntax: race:, race_top:, "
                     "called_from_lib:, thread:)")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_flag("--halt-on-error", o.halt_on_error, "stop the program at the first race");
      app.add_flag("--potential", o.potential,
                   "also report potential races: two accesses with no common lock that this run "
                   "ordered only through a lock, ranked below real races");
    }
    if (engine.mode == EngineMode::kExplore) add_explore_options(app, o, v);
    if (engine.mode == EngineMode::kTsv) add_tsv_options(app, o, v);
    if (engine.mode == EngineMode::kGuard) add_guard_options(app, engine.name, o, v);
    if (engine.mode == EngineMode::kEvents) {
      app.footer(
          "Prints the runtime's event stream (engine=record) to stdout, or to --output.\n"
          "Findings, if any, go to the report's default stream.");
    } else if (engine.mode == EngineMode::kTsv) {
      app.footer(
          "Runs PROGRAM (built with snag-cc/snag-c++) and reports two threads caught inside\n"
          "conflicting calls on the same object: std:: containers, strings, smart pointers,\n"
          "MT-unsafe libc functions and classes you annotate. Everything after PROGRAM is\n"
          "passed to it.");
    } else if (engine.mode == EngineMode::kGuard) {
      app.footer(
          "Anticipating invariants (docs/guard.md): 'learn' records, from correct runs of PROGRAM\n"
          "(built with snag-cc/snag-c++), which access of another thread came right before each\n"
          "access; 'guard' stalls a thread (1 ms steps, 10 ms cap) before an access whose order\n"
          "no learned run had, so the failure does not happen; 'expose' forces the rare order of\n"
          "order-sensitive pairs. guard keeps the program's exit status unless --exitcode is\n"
          "given. Everything after PROGRAM is passed to it.");
    } else if (engine.mode == EngineMode::kExplore) {
      app.footer(
          "Runs PROGRAM (built with snag-cc/snag-c++) under a controlled scheduler until a\n"
          "schedule fails, then writes a replay file for 'snag replay'. Everything after\n"
          "PROGRAM is passed to it.");
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

  if (engine.mode == EngineMode::kReport || engine.mode == EngineMode::kMerge) return result;
  if (engine.mode == EngineMode::kCheck) {
    if (app.count("--seed") > 0) o.seed = v.seed;
    return result;
  }
  if (app.count("--timeout") > 0) o.timeout_seconds = v.timeout;
  if (engine.mode == EngineMode::kReplay) {
    // A replayed schedule that hangs (blocked outside snag's control) must still end.
    if (!o.timeout_seconds) o.timeout_seconds = Options::kDefaultReplayTimeout;
    return result;
  }
  if (app.count("--seed") > 0) o.seed = v.seed;
  if (engine.mode == EngineMode::kTsv && app.count("--delay-ms") > 0) o.delay_ms = v.delay_ms;
  o.exitcode_set = app.count("--exitcode") > 0;
  if (engine.mode == EngineMode::kGuard) {
    // Each of the three has only some of these options.
    auto given = [&app](const char *name) {
      const CLI::Option *option = app.get_option_no_throw(name);
      return option && option->count() > 0;
    };
    if (given("--stall-ms")) o.stall_ms = v.stall_ms;
    if (given("--max-stall-ms")) o.max_stall_ms = v.max_stall_ms;
    if (given("--hold-ms")) o.hold_ms = v.hold_ms;
  }
  if (engine.mode == EngineMode::kExplore) {
    if (app.count("--time-limit") > 0) o.time_limit_seconds = v.time_limit;
    if (app.count("--schedule-timeout") > 0) o.schedule_timeout_seconds = v.schedule_timeout;
    if (app.count("--pct-depth") > 0) o.pct_depth = v.pct_depth;
    if (app.count("--shard") > 0) parse_shard(v.shard, o.shard_index, o.shard_count);
  }
  o.command = take_command(engine, app.remaining());
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
  if (first == "--help-options" || first == "--help-options=markdown") {
    std::cout << options_help(first.ends_with("=markdown"));
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
