#include "explore_engine.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "diagnostics.h"
#include "output_compare.h"
#include "pipeline.h"
#include "temp_file.h"

namespace snag::cli {

OptionPairs explore_engine_options(const std::string &findings, const std::string &explore_out,
                                   bool with_race) {
  // The race engine observes every schedule; explore leads.
  return {{"engine", with_race ? "explore+race" : "explore"},
          {"findings", findings},
          {"explore_out", explore_out},
          {"exitcode", "0"}};
}

std::vector<std::string> explore_environment(const std::string &snag_options) {
  // 1 GiB: the stacks of ~128 threads of 8 MiB; the cache only holds
  // stacks of threads that were joined, and reuses them for new threads.
  const std::string cache = "glibc.pthread.stack_cache_size=1073741824";
  // One malloc arena: the schedule's threads run one at a time, so arenas
  // of their own buy no parallelism, and each new one costs a forked
  // schedule an mmap, munmaps and an mprotect (a 64 MiB heap) and page
  // faults (glibc makes one for a thread's first malloc when no arena is
  // free, up to 8 per CPU; with 100 threads, 11-14 of ~135 faults per
  // schedule). The threads' malloc addresses change (all from the main
  // heap), the same in explore and replay. Before the user's tunables, so
  // that an arena_max of their own wins (the last setting counts).
  const std::string arenas = "glibc.malloc.arena_max=1";
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  std::vector<std::string> env = environment_with("SNAG_OPTIONS", snag_options);
  std::erase_if(env, [](const std::string &e) {
    return e.starts_with("GLIBC_TUNABLES=") || e.starts_with("LD_BIND_NOW=");
  });
  env.push_back("GLIBC_TUNABLES=" + arenas + ":" + (tunables && *tunables ? std::string(tunables) + ":" : "") +
                cache);
  env.push_back("LD_BIND_NOW=1");
  return env;
}

std::string bug_location(const report::Finding &finding) {
  const report::Frame *frame = finding.primary_frame();
  if (!frame) return "";
  if (frame->has_location()) return frame->location();
  return frame->site.empty() ? "" : "site " + frame->site;
}

std::string describe_bug(const std::string &kind, const std::string &location) {
  return location.empty() ? kind : kind + " at " + location;
}

std::optional<size_t> find_bug(const std::vector<report::Finding> &findings, const ReplayBug &bug) {
  for (size_t i = 0; i < findings.size(); ++i) {
    if (findings[i].kind == bug.kind && bug_location(findings[i]) == bug.location) return i;
  }
  return std::nullopt;
}

ReplayOutcome replay_once(const ReplayFile &replay, const ReplayRequest &request,
                          const std::string &stdin_path) {
  // The decisions go through a file because SNAG_OPTIONS values end at a space.
  TempFile decisions("decisions", ".txt");
  {
    std::ofstream out(decisions.path());
    out << request.decisions << '\n';
    if (!out.flush()) throw std::runtime_error("cannot write " + decisions.path());
  }
  TempFile findings("findings", ".jsonl");
  TempFile explore_out("explore", ".jsonl");

  OptionPairs ours = explore_engine_options(findings.path(), explore_out.path(), replay.with_race);
  ours.emplace_back("replay", decisions.path());
  if (request.lenient) ours.emplace_back("replay_lenient", "1");
  ours.emplace_back("seed", std::to_string(replay.seed));
  ours.emplace_back("preempt_on_access", replay.preempt_on_access ? "1" : "0");
  if (replay.eager_threads) ours.emplace_back("lazy_threads", "0");
  ours.emplace_back("max_steps", std::to_string(replay.max_steps));
  if (!replay.points.empty()) ours.emplace_back("points", replay.points);
  const char *user = std::getenv("SNAG_OPTIONS");

  RunRequest run;
  run.path = replay.program.path;
  run.argv.push_back(replay.program.path);
  run.argv.insert(run.argv.end(), replay.arguments.begin(), replay.arguments.end());
  run.environment = explore_environment(compose_snag_options(user ? user : "", ours));
  run.timeout_seconds = request.timeout_seconds;
  run.disable_aslr = true;
  run.null_stdin = request.quiet && stdin_path.empty();
  run.stdin_path = stdin_path;
  run.null_output = request.quiet;
  // An output-mismatch is told by what the run printed (--compare-output).
  std::optional<TempFile> printed;
  if (replay.output) {
    printed.emplace("stdout", ".txt");
    run.stdout_path = printed->path();
  }

  ReplayOutcome outcome;
  try {
    outcome.result = run_program(run);
  } catch (const std::runtime_error &e) {
    throw UsageError(e.what());
  }
  outcome.records = read_explore_records_file(explore_out.path(), "explore_out", &outcome.warnings);
  std::ifstream raw(findings.path());
  outcome.findings = load_findings(raw, "findings", replay.program.path, outcome.warnings);
  // main returning a non-zero status leaves no finding (the runtime does not
  // see the status); the fork server reports it from the child's status, so
  // a replay does the same from the program's.
  bool exit_finding = std::any_of(outcome.findings.begin(), outcome.findings.end(),
                                  [](const report::Finding &f) { return f.kind == "exit-status"; });
  const RunResult &r = outcome.result;
  if (!exit_finding && !r.signaled && !r.timed_out && r.exit_status != 0) {
    report::Finding f;
    f.engine = "explore";
    f.kind = "exit-status";
    f.message = "the program exited with status " + std::to_string(r.exit_status);
    outcome.findings.push_back(std::move(f));
  }
  if (replay.output) {
    std::vector<std::string> paths = request.output_paths;
    if (paths.empty())
      for (const ExpectedOutput::File &file : replay.output->files) paths.push_back(file.name);
    if (!request.quiet) {
      // The program's output still reaches the user, after the run.
      std::ifstream in(printed->path(), std::ios::binary);
      std::cout.flush();
      if (in.peek() != std::ifstream::traits_type::eof()) std::cerr << in.rdbuf();
      std::cerr.flush();
    }
    if (auto mismatch = output_mismatch(*replay.output, printed->path(), paths))
      outcome.findings.push_back(std::move(*mismatch));
  }
  outcome.bug = find_bug(outcome.findings, replay.bug);
  return outcome;
}

}  // namespace snag::cli
