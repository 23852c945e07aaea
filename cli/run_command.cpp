#include "run_command.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "diagnostics.h"
#include "output.h"
#include "pipeline.h"
#include "program_check.h"
#include "run_program.h"
#include "snag_options.h"
#include "temp_file.h"

namespace snag::cli {

namespace {

std::string snag_options_for(const Engine &engine, const Options &options, const TempFile &findings,
                             const TempFile *events, const OptionPairs &extra) {
  OptionPairs ours = {{"engine", std::string(engine.runtime_engine)},
                      {"findings", findings.path()},
                      // snag decides the exit status itself, from the findings.
                      {"exitcode", "0"}};
  if (options.seed) ours.emplace_back("seed", std::to_string(*options.seed));
  if (!options.suppressions.empty())
    ours.emplace_back("suppressions", std::filesystem::absolute(options.suppressions).string());
  if (options.halt_on_error) ours.emplace_back("halt_on_error", "1");
  if (options.potential) ours.emplace_back("potential", "1");
  if (events) ours.emplace_back("events", events->path());
  ours.insert(ours.end(), extra.begin(), extra.end());
  const char *user = std::getenv("SNAG_OPTIONS");
  return compose_snag_options(user ? user : "", ours);
}

// A crash of the race engine's that no race explains (race_crash.cpp: no
// detail "after_race" = "yes") is not a finding: it leaves the findings, and
// the run's note about the signal says where it happened ("... at
// file:line:col in function, thread T1").
void crash_to_note(std::vector<report::Finding> &findings, report::RunInfo &run) {
  auto unexplained = [](const report::Finding &f) {
    bool after_race = f.details.is_object() && f.details.value("after_race", "") == "yes";
    return f.engine == "race" && f.kind == "crash" && !after_race;
  };
  auto crash = std::find_if(findings.begin(), findings.end(), unexplained);
  if (crash == findings.end()) return;
  std::string where;
  if (!crash->sides.empty()) {
    const report::Side &side = crash->sides.front();
    if (!side.stack.empty() && side.stack.front().has_location()) {
      const report::Frame &top = side.stack.front();
      where = " at " + top.location();
      if (!top.function.empty()) where += " in " + top.function;
    }
    if (side.thread) where += fmt::format("{}thread T{}", where.empty() ? " in " : ", ", *side.thread);
  }
  const std::string signal_note = "program terminated by signal ";
  for (std::string &note : run.notes)
    if (note.rfind(signal_note, 0) == 0) note += where;
  findings.erase(std::remove_if(findings.begin(), findings.end(), unexplained), findings.end());
}

void copy_file_to(const std::string &from, std::ostream &to) {
  std::ifstream in(from, std::ios::binary);
  // Inserting an empty streambuf sets failbit on `to`, which would silently
  // swallow everything written to it afterwards.
  if (in.peek() != std::ifstream::traits_type::eof()) to << in.rdbuf();
  to.flush();
}

}  // namespace

report::RunInfo describe_run(const std::string &engine, const std::vector<std::string> &command,
                             const RunResult &result, std::optional<double> timeout_seconds) {
  report::RunInfo run;
  run.engine = engine;
  if (!command.empty()) {
    run.program = command.front();
    run.arguments.assign(command.begin() + 1, command.end());
  }
  if (result.signaled) run.signal = result.signal;
  else run.exit_status = result.exit_status;
  run.timed_out = result.timed_out;
  // A timeout explains the signal that followed it; saying both would confuse.
  if (result.timed_out && timeout_seconds) {
    run.notes.push_back(fmt::format("program timed out after {} s", *timeout_seconds));
  } else if (result.signaled) {
    run.notes.push_back("program terminated by signal " + describe_signal(result.signal));
  }
  if (result.leftovers) {
    run.notes.push_back(
        "processes the program started were still running when snag stopped waiting for them; "
        "what they find from now on is not in this report");
  }
  return run;
}

ProgramRun run_under_engine(const Engine &engine, const Options &options, const OptionPairs &extra,
                            const TempFile *events) {
  std::string path = resolve_program(options.command.front());
  TempFile findings_file("findings", ".jsonl");

  RunRequest request;
  request.path = path;
  request.argv = options.command;
  request.environment = environment_with(
      "SNAG_OPTIONS", snag_options_for(engine, options, findings_file, events, extra));
  request.timeout_seconds = options.timeout_seconds;
  // A machine-readable report on stdout stays parseable: the program's own
  // output goes to stderr instead.
  request.stdout_to_stderr = options.output.empty() && options.format != "text";

  ProgramRun run;
  try {
    run.result = run_program(request);
  } catch (const std::runtime_error &e) {
    throw UsageError(e.what());
  }
  // From here on only snag writes. If a reader of our output goes away
  // (`snag ... | head`), let the write fail instead of dying of SIGPIPE, so
  // the temporary files are still removed. The program has already exited,
  // so it does not inherit this.
  std::signal(SIGPIPE, SIG_IGN);

  run.info =
      describe_run(std::string(engine.name), options.command, run.result, options.timeout_seconds);
  std::ifstream raw(findings_file.path());
  run.findings = load_findings(raw, "findings", path, run.info.warnings);
  crash_to_note(run.findings, run.info);

  if (!options.keep_findings.empty()) {
    std::error_code error;
    std::filesystem::copy_file(findings_file.path(), options.keep_findings,
                               std::filesystem::copy_options::overwrite_existing, error);
    if (error) {
      run.info.warnings.push_back("cannot keep the findings in " + options.keep_findings + ": " +
                                  error.message());
    }
  }
  return run;
}

int run_engine(const Engine &engine, const Options &options) {
  Format format = parse_format(options.format);
  bool events_mode = engine.mode == EngineMode::kEvents;
  // Open --output before running, so a typo in it costs nothing. For
  // `events` it names where the event stream goes; the report keeps its
  // default stream.
  std::optional<Destination> events_out;
  if (events_mode) events_out.emplace(options.output, std::cout, STDOUT_FILENO);
  Destination report_out = report_destination(events_mode ? "" : options.output, format);

  std::optional<TempFile> events_file;
  if (events_mode) events_file.emplace("events", ".log");
  ProgramRun run = run_under_engine(engine, options, {}, events_file ? &*events_file : nullptr);
  if (events_mode) copy_file_to(events_file->path(), events_out->stream());

  for (const std::string &warning : run.info.warnings) print_warning(warning);
  // The event stream is the output of `events`; a findings report there is
  // only worth printing when the record engine found something.
  if (!events_mode || !run.findings.empty()) {
    write_report(report_out.stream(), format, run.findings, run.info,
                 use_color(options.color, report_out));
  }
  for (const std::string &note : run.info.notes) print_note(note);

  // A program that died of a signal says so in the exit status even when
  // something was found (the findings are in the report): 128 + signal, as
  // a shell reports it. A timeout is snag's own doing, not a crash.
  if (run.result.signaled && !run.result.timed_out) return run.result.shell_status();
  return run.findings.empty() ? run.result.shell_status() : options.exitcode;
}

}  // namespace snag::cli
