#include "race_points.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "explore_engine.h"
#include "explore_records.h"
#include "report/finding.h"
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
  // --with-race. Which races a run reports depends on the order its threads
  // took their locks; here that order is the scheduler's, from a fixed seed,
  // not the machine's timing. A schedule that reports a race fails, which
  // ends the pass: its races are the points (a union of several schedules'
  // races makes more points than a free run did, and more points can make a
  // bug far rarer: docs/explore.md). The environment is the workers'
  // (explore_environment), so heap and stack addresses are the ones their
  // schedules meet.
  OptionPairs ours = explore_engine_options(findings.path(), explore_out.path(), true);
  ours.emplace_back("strategy", "random");
  ours.emplace_back("seed", std::to_string(kRacePassSeed));
  ours.emplace_back("schedules", std::to_string(kRacePassSchedules));
  ours.emplace_back("preempt_on_access", "0");
  // A race of the same two sites on another 8-byte granule is reported
  // again: two neighbouring variables raced on by the same statements are
  // two addresses, and the preemption a bug needs may be at an access to
  // the second that no reported race names (docs/explore.md).
  ours.emplace_back("report_each_address", "1");
  ours.emplace_back("max_steps", std::to_string(request.max_steps));
  // Each schedule gets its share of the pass's time, so one that hangs
  // (a blocking call the scheduler does not see through) leaves the next
  // ones theirs: it ends as incomplete, with the races it reported so far.
  ours.emplace_back("schedule_timeout",
                    std::to_string(request.timeout_seconds / double(kRacePassSchedules)));
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
  RacyAccesses racy;
  ExploreRecords records = read_explore_records_file(explore_out.path(), "race pass", nullptr);
  if (records.summary) racy.schedules = records.summary->schedules;
  std::ifstream in(findings.path());
  // Raw, in the order reported: no site resolution (the runtime compares raw
  // ids) and no dedup, which keeps one finding per pair of innermost frames
  // and so one of the addresses the same two statements raced on.
  std::vector<report::Finding> found = report::read_findings(in, warnings);
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
