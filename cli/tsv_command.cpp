#include "tsv_command.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "diagnostics.h"
#include "output.h"
#include "program_check.h"
#include "report/dedup.h"
#include "report/rank.h"
#include "run_command.h"
#include "trap_file.h"

namespace snag::cli {

int run_tsv(const Engine &engine, const Options &options) {
  Format format = parse_format(options.format);
  Destination report_out = report_destination(options.output, format);
  std::string program = resolve_program(options.command.front());
  std::string trap_file = options.trap_file.empty() ? default_trap_file(program) : options.trap_file;
  prepare_trap_file(trap_file, program);

  OptionPairs extra = {{"trap_file", std::filesystem::absolute(trap_file).string()}};
  if (options.delay_ms) extra.emplace_back("delay_ms", std::to_string(*options.delay_ms));

  std::vector<report::Finding> findings;
  report::RunInfo info;
  RunResult last;
  for (uint64_t run = 1; run <= options.runs; ++run) {
    OptionPairs pairs = extra;
    // Each run draws its delays from its own seed, derived from --seed.
    if (options.seed) pairs.emplace_back("seed", std::to_string(*options.seed + run - 1));
    ProgramRun result = run_under_engine(engine, options, pairs, nullptr);
    last = result.result;
    for (report::Finding &f : result.findings) findings.push_back(std::move(f));
    for (std::string &w : result.info.warnings)  // each once, not once per run
      if (std::find(info.warnings.begin(), info.warnings.end(), w) == info.warnings.end())
        info.warnings.push_back(std::move(w));
    for (const std::string &note : result.info.notes) {
      info.notes.push_back(options.runs > 1 ? fmt::format("run {}: {}", run, note) : note);
    }
    // The report describes the last run; the notes tell about the others.
    result.info.warnings.clear();
    result.info.notes.clear();
    info.engine = result.info.engine;
    info.program = result.info.program;
    info.arguments = result.info.arguments;
    info.exit_status = result.info.exit_status;
    info.signal = result.info.signal;
    info.timed_out = info.timed_out || result.info.timed_out;
  }
  findings = report::dedup(std::move(findings));
  report::rank(findings);
  info.details = {{"tsv", {{"runs", options.runs}, {"trap_file", trap_file}}}};

  for (const std::string &warning : info.warnings) print_warning(warning);
  write_report(report_out.stream(), format, findings, info, use_color(options.color, report_out));
  for (const std::string &note : info.notes) print_note(note);
  print_command_note("tsv", fmt::format("{} run{}; the trap file {} carries what they learned to "
                                        "the next run",
                                        options.runs, options.runs == 1 ? "" : "s", trap_file));
  return findings.empty() ? last.shell_status() : options.exitcode;
}

}  // namespace snag::cli
