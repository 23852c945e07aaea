#include "guard_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "diagnostics.h"
#include "invariants_file.h"
#include "output.h"
#include "program_check.h"
#include "report/dedup.h"
#include "report/rank.h"
#include "report/site_table.h"
#include "run_command.h"
#include "temp_file.h"

namespace snag::cli {

namespace {

std::string absolute(const std::string &path) { return std::filesystem::absolute(path).string(); }

std::string base_name(const std::string &path) { return std::filesystem::path(path).filename().string(); }

size_t entry_count(const Invariants &inv) {
  size_t n = 0;
  for (const auto &[site, predecessors] : inv.bsets) n += predecessors.size();
  return n;
}

// "exited with status 3" / "was killed by SIGSEGV (11)".
std::string how_it_ended(const RunResult &result) {
  if (result.timed_out) return "timed out";
  if (result.signaled) return "was killed by " + describe_signal(result.signal);
  return fmt::format("exited with status {}", result.exit_status);
}

// Sites of `inv` the program's site table does not have: invariants learned
// from an older build whose code changed since (stable ids match the rest).
size_t unmatched_sites(const Invariants &inv, const std::string &program) {
  report::SiteTable table;
  try {
    table = report::SiteTable::from_binary(program);
  } catch (const std::exception &) {
    return 0;  // no table to compare with; the report pipeline says so
  }
  if (table.empty()) return 0;
  size_t n = 0;
  for (const auto &[site, predecessors] : inv.bsets) n += table.find(site) == nullptr;
  return n;
}

void note_unmatched(const Invariants &inv, const std::string &program, const std::string &file,
                    const std::string &command) {
  size_t unmatched = unmatched_sites(inv, program);
  if (unmatched > 0 && unmatched == inv.bsets.size()) {
    print_warning(fmt::format("none of the {} sites in {} is in {}: the file was learned from {}; "
                              "nothing is checked",
                              inv.bsets.size(), file, base_name(program),
                              inv.program.empty() ? "another program" : "program '" + inv.program + "'"));
  } else if (unmatched > 0) {
    print_command_note(command, fmt::format("{} of the {} sites in {} are not in this build of {} "
                                            "(code changed since they were learned); they are not checked",
                                            unmatched, inv.bsets.size(), file, base_name(program)));
  }
}

// The runs of one command, gathered into one report.
struct Gathered {
  std::vector<report::Finding> findings;
  report::RunInfo info;
  RunResult last;

  void add(ProgramRun &run) {
    for (report::Finding &f : run.findings) findings.push_back(std::move(f));
    for (std::string &w : run.info.warnings)
      if (std::find(info.warnings.begin(), info.warnings.end(), w) == info.warnings.end())
        info.warnings.push_back(std::move(w));
    for (std::string &n : run.info.notes) info.notes.push_back(std::move(n));
    info.engine = run.info.engine;
    info.program = run.info.program;
    info.arguments = run.info.arguments;
    info.exit_status = run.info.exit_status;
    info.signal = run.info.signal;
    info.timed_out = info.timed_out || run.info.timed_out;
    last = run.result;
  }

  void present(const Options &options) {
    findings = report::dedup(std::move(findings));
    report::rank(findings);
    Format format = parse_format(options.format);
    Destination out = report_destination(options.output, format);
    present_report(out, format, options.color, findings, info);
  }
};

size_t tolerated_count(const std::vector<report::Finding> &findings) {
  size_t n = 0;
  for (const report::Finding &f : findings) {
    if (f.details.is_object() && f.details.value("outcome", "") == "tolerated") ++n;
  }
  return n;
}

int run_learn(const Engine &engine, const Options &options) {
  const std::string &file = options.invariants;
  Invariants known = load_invariants_file(file);  // corrupt or foreign: one line, exit 2
  bool relax = options.relax;
  if (relax && !std::filesystem::exists(file))
    throw UsageError(fmt::format("learn --relax: invariants file {} does not exist (learn first)", file));
  std::string program = resolve_program(options.command.front());
  if (known.program.empty()) known.program = base_name(program);

  Gathered gathered;
  int refused_status = 0;
  uint64_t learned_runs = 0;
  for (uint64_t run = 1; run <= options.runs; ++run) {
    TempFile learned_file("learned", ".invariants");
    OptionPairs extra = {{"learn_out", learned_file.path()}};
    if (relax) extra.emplace_back("invariants", absolute(file));
    ProgramRun result = run_under_engine(engine, options, extra, nullptr);
    std::string label = options.runs > 1 ? fmt::format("run {}: ", run) : "";
    if (result.result.signaled || result.result.timed_out || result.result.exit_status != 0) {
      print_command_note("learn", fmt::format("{}the program {}; a run that fails is not learned "
                                              "from (learn from correct runs only)",
                                              label, how_it_ended(result.result)));
      refused_status = result.result.shell_status();
      result.findings.clear();
      gathered.add(result);
      continue;
    }
    std::ifstream in(learned_file.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().empty()) {
      print_command_note("learn", label + "the program wrote no invariants (was it built with "
                                          "snag-cc/snag-c++?); nothing learned");
      gathered.add(result);
      continue;
    }
    Invariants learned = parse_invariants_text(text.str(), "(learned by the run)");
    InvariantsChange change = merge_invariants(known, learned);
    ++learned_runs;
    print_command_note("learn", fmt::format("{}{} site{} and {} entr{} changed; {} now holds {} "
                                            "sites, {} entries",
                                            label, change.sites, change.sites == 1 ? "" : "s",
                                            change.entries, change.entries == 1 ? "y" : "ies", file,
                                            known.bsets.size(), entry_count(known)));
    gathered.add(result);
  }
  if (learned_runs > 0) save_invariants_file(file, known);
  gathered.info.details = {{"learn", {{"runs", options.runs},
                                      {"learned_runs", learned_runs},
                                      {"invariants", file},
                                      {"sites", known.bsets.size()},
                                      {"entries", entry_count(known)}}}};
  if (relax) {
    gathered.present(options);
    print_command_note("learn", fmt::format("--relax: {} violation{} of a correct run added to {}",
                                            gathered.findings.size(),
                                            gathered.findings.size() == 1 ? "" : "s", file));
  } else if (!gathered.info.warnings.empty()) {
    for (const std::string &w : gathered.info.warnings) print_warning(w);
  }
  return refused_status;
}

int run_guard(const Engine &engine, const Options &options) {
  const std::string &file = options.invariants;
  std::string program = resolve_program(options.command.front());
  OptionPairs extra;
  Engine unguarded = engine;
  try {
    if (!std::filesystem::exists(file))
      throw UsageError(fmt::format("invariants file {} does not exist (run 'snag learn' first)", file));
    Invariants known = load_invariants_file(file);
    note_unmatched(known, program, file, "guard");
    extra.emplace_back("invariants", absolute(file));
    if (options.stall_ms) extra.emplace_back("stall_ms", std::to_string(*options.stall_ms));
    if (options.max_stall_ms) extra.emplace_back("max_stall_ms", std::to_string(*options.max_stall_ms));
  } catch (const UsageError &e) {
    // Production mode: a bad file must not keep the program from running.
    print_warning(std::string(e.what()) + "; running the program unguarded");
    unguarded.runtime_engine = "none";
  }
  Gathered gathered;
  ProgramRun run = run_under_engine(unguarded, options, extra, nullptr);
  gathered.add(run);
  gathered.info.engine = "guard";
  gathered.present(options);
  size_t tolerated = tolerated_count(gathered.findings);
  if (!gathered.findings.empty()) {
    print_command_note("guard", fmt::format("{} violation{} of the learned invariants; {} tolerated by "
                                            "stalling, {} not",
                                            gathered.findings.size(),
                                            gathered.findings.size() == 1 ? "" : "s", tolerated,
                                            gathered.findings.size() - tolerated));
  }
  if (!gathered.findings.empty() && options.exitcode_set) return options.exitcode;
  return gathered.last.shell_status();
}

// Algorithm 3's stall points, counted the way the runtime plans them.
size_t stall_point_count(const Invariants &inv) {
  size_t n = 0;
  for (const auto &[site, predecessors] : inv.bsets) {
    if (predecessors.size() != 1 || *predecessors.begin() == 0) continue;
    auto p = inv.bsets.find(*predecessors.begin());
    if (p == inv.bsets.end() || !p->second.count(site)) ++n;
  }
  return n;
}

int run_expose(const Engine &engine, const Options &options) {
  const std::string &file = options.invariants;
  if (!std::filesystem::exists(file))
    throw UsageError(fmt::format("invariants file {} does not exist (run 'snag learn' first)", file));
  Invariants known = load_invariants_file(file);
  std::string program = resolve_program(options.command.front());
  note_unmatched(known, program, file, "expose");
  OptionPairs extra = {{"invariants", absolute(file)}};
  if (options.hold_ms) extra.emplace_back("expose_stall_ms", std::to_string(*options.hold_ms));
  Gathered gathered;
  for (uint64_t run = 1; run <= options.runs; ++run) {
    ProgramRun result = run_under_engine(engine, options, extra, nullptr);
    gathered.add(result);
  }
  gathered.info.details = {{"expose", {{"stall_points", stall_point_count(known)}, {"invariants", file}}}};
  gathered.present(options);
  print_command_note("expose", fmt::format("{} stall point{} from {}; {} violation{} revealed",
                                           stall_point_count(known),
                                           stall_point_count(known) == 1 ? "" : "s", file,
                                           gathered.findings.size(),
                                           gathered.findings.size() == 1 ? "" : "s"));
  return gathered.findings.empty() ? gathered.last.shell_status() : options.exitcode;
}

}  // namespace

int run_guard_command(const Engine &engine, const Options &options) {
  if (engine.name == "learn") return run_learn(engine, options);
  if (engine.name == "expose") return run_expose(engine, options);
  return run_guard(engine, options);
}

}  // namespace snag::cli
