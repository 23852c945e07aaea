#include "check_command.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "check_findings.h"
#include "compile_commands.h"
#include "diagnostics.h"
#include "isolated_check.h"
#include "interp/ir/checker.h"
#include "output.h"
#include "report/dedup.h"
#include "report/diagnostic_writer.h"
#include "report/rank.h"

namespace snag::cli {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// The interpreter's own budget (--max-steps) ends a target long before this
// on anything it understands; the limit is for what it does not.
constexpr double kTargetTimeoutSeconds = 300;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Everything one target produced; printed in target order once all are done,
// so the output does not depend on --jobs.
struct TargetOutcome {
  std::vector<report::Finding> findings;
  std::vector<std::string> notes;          // "file:line:col: message" lines, or plain lines
  std::vector<std::string> diagnostics;    // clang's, for TUs that did not compile
  std::vector<std::string> failed_files;
  std::vector<std::string> verbose;        // --verbose lines
  size_t units = 0, compiled = 0, cached = 0;
  uint64_t runs = 0, steps = 0;
  std::vector<std::string> entries;
  double compile_seconds = 0, check_seconds = 0;
  bool library = false;  // no main, no test: compiled with every declaration
};

std::string site_text(const interp::SourceSite &site) {
  if (site.file.empty()) return "snag";
  return fmt::format("{}:{}:{}", site.file, site.line, site.column);
}

interp::CheckOptions check_options(const Options &options) {
  interp::CheckOptions check;
  check.seed = options.seed.value_or(check.seed);
  check.max_steps_total = options.check_max_steps;
  check.max_steps_per_run = std::min(check.max_steps_per_run, check.max_steps_total);
  return check;
}

// Runs the interpreter on one module; adds its findings and notes.
void interpret(llvm::Module &module, const std::string &name, const Options &options,
               TargetOutcome &outcome) {
  interp::CheckOptions check = check_options(options);
  Clock::time_point start = Clock::now();
  IsolatedCheck isolated = check_module_isolated(module, check, kTargetTimeoutSeconds);
  outcome.check_seconds += seconds_since(start);
  if (!isolated.failure.empty()) {
    outcome.notes.push_back(fmt::format("{}: {}; nothing reported for it", name, isolated.failure));
    return;
  }
  if (!isolated.result) {
    // A TU with nothing to start from (no main, no test, no class with a
    // mutex or threads) is not an error of the user's.
    std::string why = isolated.no_entry;
    if (why.rfind("nothing to check", 0) != 0) why = "nothing to check: " + why;
    outcome.notes.push_back(name + ": " + why);
    return;
  }
  const interp::CheckResult &result = *isolated.result;
  for (const interp::CheckFinding &finding : result.findings)
    outcome.findings.push_back(to_report_finding(finding, check.seed));
  for (const interp::CheckNote &note : result.notes)
    outcome.notes.push_back(site_text(note.site) + ": " + note.message);
  outcome.runs += result.runs;
  outcome.steps += result.steps;
  outcome.entries.insert(outcome.entries.end(), result.entries.begin(), result.entries.end());
}

// Compiles every TU of a target, with `extra` flags after each TU's own.
// `counted`: this pass's compilations and cache hits go into the statistics.
std::vector<std::unique_ptr<llvm::Module>> compile_units(const CheckTarget &target,
                                                         const std::vector<std::string> &extra, bool counted,
                                                         const interp::frontend::FrontendOptions &frontend,
                                                         llvm::LLVMContext &context, TargetOutcome &outcome) {
  std::vector<std::unique_ptr<llvm::Module>> modules;
  std::string pass = extra.empty() ? "" : " (with " + extra.front() + ")";
  for (interp::frontend::TranslationUnit unit : target.units) {
    unit.flags.insert(unit.flags.end(), extra.begin(), extra.end());
    Clock::time_point start = Clock::now();
    interp::frontend::CompileResult compiled = interp::frontend::compile_translation_unit(unit, frontend, context);
    double seconds = seconds_since(start);
    outcome.compile_seconds += seconds;
    if (!compiled.module) {
      outcome.diagnostics.push_back(compiled.diagnostics);
      outcome.failed_files.push_back(unit.file);
      continue;
    }
    if (!compiled.dropped_flags.empty() && counted) {
      std::string flags;
      for (const std::string &flag : compiled.dropped_flags) flags += (flags.empty() ? "" : " ") + flag;
      outcome.notes.push_back(fmt::format("{}: clang 14 does not know {}; checked without", unit.file, flags));
    }
    if (compiled.from_cache) {
      outcome.cached += counted;
      outcome.verbose.push_back(fmt::format("{}: bitcode{} from the cache{} ({:.2f} s)", unit.file, pass,
                                            compiled.ran_clang ? "" : ", its files unchanged", seconds));
    } else {
      outcome.compiled += counted;
      outcome.verbose.push_back(fmt::format("{}: compiled{} ({:.2f} s)", unit.file, pass, seconds));
    }
    modules.push_back(std::move(compiled.module));
  }
  return modules;
}

// Whether the interpreter has a main or a GoogleTest body to start from.
bool has_program_entry(const llvm::Module &module) {
  for (const llvm::Function &f : module) {
    if (f.isDeclaration()) continue;
    if (f.getName() == "main" || f.getName().endswith("8TestBodyEv")) return true;
  }
  return false;
}

TargetOutcome check_target(const CheckTarget &target, const Options &options,
                           const interp::frontend::FrontendOptions &frontend) {
  TargetOutcome outcome;
  outcome.units = target.units.size();
  llvm::LLVMContext context;
  std::vector<std::string> extra;  // flags of the pass whose modules are checked
  std::vector<std::unique_ptr<llvm::Module>> modules =
      compile_units(target, extra, true, frontend, context, outcome);
  if (modules.empty()) return outcome;
  if (outcome.failed_files.empty() &&
      std::none_of(modules.begin(), modules.end(), [](const auto &m) { return has_program_entry(*m); })) {
    // A library: clang leaves out the inline member functions nothing in
    // the TU calls, and those are what in-the-middle starts call. Compile
    // again with every declaration emitted (cached like any other bitcode).
    modules.clear();
    outcome.library = true;
    outcome.compiled = outcome.cached = 0;
    extra = {"-femit-all-decls"};
    modules = compile_units(target, extra, true, frontend, context, outcome);
    if (modules.empty()) return outcome;
  }

  std::string link_error;
  std::unique_ptr<llvm::Module> linked =
      modules.size() == 1 ? std::move(modules.front()) : interp::frontend::link_modules(std::move(modules), link_error);
  if (linked) {
    interpret(*linked, target.name, options, outcome);
  } else {
    // Two definitions of one symbol (two mains in one directory's files):
    // check each TU alone rather than nothing. Linking consumed the modules;
    // the cache gives them back without compiling.
    outcome.notes.push_back(fmt::format("{}: {}; checking its translation units one by one",
                                        target.name, one_line(link_error)));
    for (auto &m : compile_units(target, extra, false, frontend, context, outcome))
      interpret(*m, m->getModuleIdentifier(), options, outcome);
  }
  outcome.verbose.push_back(fmt::format("{}{}: {} translation unit{}, {} run{}, {} steps, checked in {:.2f} s",
                                        target.name, outcome.library ? " (a library)" : "", outcome.units,
                                        outcome.units == 1 ? "" : "s",
                                        outcome.runs, outcome.runs == 1 ? "" : "s", outcome.steps,
                                        outcome.check_seconds));
  return outcome;
}

std::string absolute_normal(const std::string &path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) return path;
  fs::path canonical = fs::weakly_canonical(absolute, error);
  return (error ? absolute.lexically_normal() : canonical).string();
}

void require_source_file(const std::string &file) {
  std::error_code error;
  if (!fs::exists(file, error)) throw UsageError("no such file: " + file);
  if (fs::is_directory(file, error)) throw UsageError(file + " is a directory");
}

std::vector<CheckTarget> plan_from_database(const Options &options, std::vector<std::string> *notes) {
  std::vector<CompileCommand> commands;
  try {
    commands = read_compile_commands(options.build_dir);
  } catch (const CompileDatabaseError &e) {
    throw UsageError(e.what());
  }
  if (commands.empty()) throw UsageError("no translation units in " + options.build_dir + "/compile_commands.json");

  std::vector<bool> selected(commands.size(), options.check_files.empty());
  for (const std::string &file : options.check_files) {
    require_source_file(file);
    std::string wanted = absolute_normal(file);
    bool found = false;
    for (size_t i = 0; i < commands.size(); ++i) {
      if (absolute_normal(commands[i].file) == wanted) selected[i] = found = true;
    }
    if (!found) throw UsageError(fmt::format("{} is not in the compilation database of {}", file, options.build_dir));
  }

  std::vector<CheckTarget> targets;
  std::map<std::string, size_t> by_target;
  std::vector<std::string> skipped;
  for (size_t i = 0; i < commands.size(); ++i) {
    if (!selected[i]) continue;
    CompileCommand &command = commands[i];
    if (!is_c_or_cxx_source(command.file)) {
      skipped.push_back(command.file);
      continue;
    }
    interp::frontend::TranslationUnit unit{command.file, command.directory, command.flags};
    unit.flags.insert(unit.flags.end(), options.compiler_flags.begin(), options.compiler_flags.end());
    if (!command.target.empty()) {
      auto [it, inserted] = by_target.emplace(command.target, targets.size());
      if (inserted) targets.push_back(CheckTarget{command.target, {}});
      CheckTarget &target = targets[it->second];
      // One entry per source: a database may list a file twice (two configurations).
      bool duplicate = std::any_of(target.units.begin(), target.units.end(),
                                   [&](const auto &u) { return u.file == unit.file; });
      if (!duplicate) target.units.push_back(std::move(unit));
    } else {
      targets.push_back(CheckTarget{command.file, {std::move(unit)}});
    }
  }
  if (!skipped.empty() && notes) {
    notes->push_back(fmt::format("{}: {} source{} not in C or C++ left out, such as {}", options.build_dir,
                                 skipped.size(), skipped.size() == 1 ? "" : "s", skipped.front()));
  }
  return targets;
}

}  // namespace

bool is_c_or_cxx_source(const std::string &file) {
  std::string extension = fs::path(file).extension().string();
  for (const char *known : {".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".CPP"})
    if (extension == known) return true;
  return false;
}

std::vector<CheckTarget> plan_check(const Options &options, std::vector<std::string> *notes) {
  if (!options.build_dir.empty()) return plan_from_database(options, notes);
  if (options.check_files.empty()) throw UsageError("check: missing FILE or -p BUILD_DIR (see 'snag check --help')");
  // Files named together are one program, as on a compiler's command line.
  CheckTarget target;
  for (const std::string &file : options.check_files) {
    require_source_file(file);
    target.units.push_back({file, "", options.compiler_flags});
  }
  target.name = options.check_files.size() == 1 ? options.check_files.front() : "the named files";
  return {target};
}

int run_check(const Options &options) {
  Format format = parse_format(options.format);
  Destination out = report_destination(options.output, format);
  std::vector<std::string> plan_notes;
  std::vector<CheckTarget> targets = plan_check(options, &plan_notes);

  interp::frontend::FrontendOptions frontend;
  frontend.cache_dir = options.no_cache ? "" : options.cache_dir.empty() ? interp::frontend::default_cache_dir()
                                                                        : options.cache_dir;
  Clock::time_point start = Clock::now();
  std::vector<TargetOutcome> outcomes(targets.size());
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::string first_error;
  auto worker = [&] {
    for (size_t i = next++; i < targets.size(); i = next++) {
      try {
        outcomes[i] = check_target(targets[i], options, frontend);
      } catch (const std::exception &e) {  // clang cannot run at all
        std::lock_guard<std::mutex> lock(error_mutex);
        if (first_error.empty()) first_error = e.what();
      }
    }
  };
  unsigned jobs = std::max(1u, std::min<unsigned>(options.jobs, targets.size()));
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (std::thread &t : threads) t.join();
  if (!first_error.empty()) throw UsageError(first_error);
  // Reading our output may stop early (`snag check ... | head`).
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<report::Finding> findings;
  report::RunInfo run;
  run.engine = "check";
  run.notes = plan_notes;
  nlohmann::json per_target = nlohmann::json::array();
  size_t units = 0, compiled = 0, cached = 0;
  uint64_t runs = 0, steps = 0;
  std::vector<std::string> failed;
  for (size_t i = 0; i < targets.size(); ++i) {
    TargetOutcome &o = outcomes[i];
    for (const std::string &text : o.diagnostics) std::cerr << text;
    failed.insert(failed.end(), o.failed_files.begin(), o.failed_files.end());
    for (report::Finding &f : o.findings) findings.push_back(std::move(f));
    run.notes.insert(run.notes.end(), o.notes.begin(), o.notes.end());
    units += o.units, compiled += o.compiled, cached += o.cached, runs += o.runs, steps += o.steps;
    per_target.push_back({{"name", targets[i].name},
                          {"translation_units", o.units},
                          {"library", o.library},
                          {"compiled", o.compiled},
                          {"from_cache", o.cached},
                          {"compile_seconds", o.compile_seconds},
                          {"check_seconds", o.check_seconds},
                          {"runs", o.runs},
                          {"steps", o.steps},
                          {"findings", o.findings.size()},
                          {"entries", o.entries}});
  }
  findings = report::dedup(std::move(findings));
  report::rank(findings);
  double seconds = seconds_since(start);
  run.details = {{"check",
                  {{"seed", check_options(options).seed},
                   {"max_steps", options.check_max_steps},
                   {"targets", per_target},
                   {"translation_units", units},
                   {"compiled", compiled},
                   {"from_cache", cached},
                   {"runs", runs},
                   {"steps", steps},
                   {"seconds", seconds}}}};

  // Nothing compiled: clang's diagnostics are the whole story in text; the
  // machine formats still get a (findings-free) report to parse.
  bool nothing_checked = compiled + cached == 0;
  if (format == Format::kText && nothing_checked) {
    // no report
  } else if (format == Format::kText) {
    std::error_code ignored;
    std::string cwd = fs::current_path(ignored).string() + "/";
    report::write_diagnostics(out.stream(), findings, {use_color(options.color, out), cwd});
    for (std::string note : run.notes) {
      // "file:line:col: message" becomes a compiler-style note, its path
      // shown like the findings'.
      if (note.rfind(cwd, 0) == 0) note.erase(0, cwd.size());
      size_t colon = note.find(": ");
      out.stream() << note.substr(0, colon) << ": note: " << note.substr(colon + 2) << '\n';
    }
    out.stream().flush();
  } else {
    write_report(out.stream(), format, findings, run, false);
  }
  if (options.verbose) {
    for (const TargetOutcome &o : outcomes)
      for (const std::string &line : o.verbose) print_command_note("check", line);
    print_command_note("check", fmt::format("{} target{}, {} translation unit{} ({} compiled, {} from the cache), "
                                            "{} runs, {} steps, {:.2f} s",
                                            targets.size(), targets.size() == 1 ? "" : "s", units,
                                            units == 1 ? "" : "s", compiled, cached, runs, steps, seconds));
  }
  if (!failed.empty()) {
    print_error(fmt::format("check: {} does not compile (clang's diagnostics above){}", failed.front(),
                            failed.size() > 1 ? fmt::format(", nor do {} other files", failed.size() - 1) : ""));
    return kUsageExitStatus;
  }
  return findings.empty() ? 0 : options.exitcode;
}

}  // namespace snag::cli
