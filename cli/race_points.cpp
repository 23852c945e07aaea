#include "race_points.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "explore_engine.h"
#include "pipeline.h"
#include "run_program.h"
#include "snag_options.h"
#include "temp_file.h"

namespace snag::cli {

namespace {

// The explore engine keeps at most this many sites (racy_sites.cpp).
constexpr size_t kMaxSites = 64;

}  // namespace

RacyAccesses racy_accesses(const RacePassRequest &request) {
  TempFile findings("race-pass", ".jsonl");
  TempFile explore_out("race-pass", ".jsonl");
  // The explore engine leads and the race engine observes, as with
  // --with-race, but a race does not fail the schedule (observers_fail=0):
  // every one of the pass's schedules runs and reports its races. Which
  // races a run reports depends on the order its threads took their locks;
  // here that order is the scheduler's, from a fixed seed, not the
  // machine's timing. The environment is the workers' (explore_environment),
  // so heap and stack addresses are the ones their schedules meet.
  OptionPairs ours = explore_engine_options(findings.path(), explore_out.path(), true);
  ours.emplace_back("strategy", "random");
  ours.emplace_back("seed", std::to_string(kRacePassSeed));
  ours.emplace_back("schedules", std::to_string(kRacePassSchedules));
  ours.emplace_back("observers_fail", "0");
  ours.emplace_back("preempt_on_access", "0");
  ours.emplace_back("max_steps", std::to_string(request.max_steps));
  const char *user = std::getenv("SNAG_OPTIONS");
  RunRequest run;
  run.path = request.path;
  run.argv = request.argv;
  run.environment = explore_environment(compose_snag_options(user ? user : "", ours));
  run.timeout_seconds = request.timeout_seconds;
  run.disable_aslr = true;
  if (request.stdin_path.empty())
    run.null_stdin = true;
  else
    run.stdin_path = request.stdin_path;
  run.null_output = true;
  run.leftover_grace_seconds = 1;
  try {
    RunResult result = run_program(run);
    // A pass cut short may have left half a line; what it found is still
    // useful, so the findings are read either way.
    (void)result;
  } catch (const std::runtime_error &) {
    return {};  // the exploration reports why the program does not start
  }
  std::vector<std::string> warnings;  // the pass is a hint: its warnings are not the user's
  std::ifstream in(findings.path());
  // No program: the sites stay raw ids, which is what the runtime compares.
  std::vector<report::Finding> found = load_findings(in, "race pass", "", warnings);
  RacyAccesses racy;
  auto add = [](std::vector<std::string> &to, const std::string &value) {
    if (!value.empty() && to.size() < kMaxSites && std::find(to.begin(), to.end(), value) == to.end())
      to.push_back(value);
  };
  for (const report::Finding &finding : found) {
    if (finding.kind != "data-race") continue;
    for (const report::Side &side : finding.sides) {
      if (!side.stack.empty()) add(racy.sites, side.stack.front().site);
      if (side.access && side.access->address.starts_with("0x"))
        add(racy.addresses, side.access->address.substr(2));
    }
  }
  return racy;
}

std::string join_sites(const std::vector<std::string> &sites) {
  std::string out;
  for (const std::string &site : sites) out += (out.empty() ? "" : ",") + site;
  return out;
}

}  // namespace snag::cli
