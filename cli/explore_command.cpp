#include "explore_command.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <sched.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "decisions.h"
#include "diagnostics.h"
#include "explore_engine.h"
#include "explore_records.h"
#include "output.h"
#include "output_compare.h"
#include "pipeline.h"
#include "program_check.h"
#include "race_points.h"
#include "replay_file.h"
#include "run_command.h"
#include "run_program.h"
#include "temp_file.h"

namespace snag::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

// One of the -j processes: its files, its part of the work, and what it did.
struct Worker {
  TempFile findings{"findings", ".jsonl"};
  TempFile explore_out{"explore", ".jsonl"};
  std::string shard;       // "I/N" for SNAG_OPTIONS
  uint64_t schedules = 0;  // its part of --schedules
  RunResult result;
  ExploreRecords records;
};

// What all workers did together, as far as their summaries tell: a worker
// that was stopped writes none.
struct Totals {
  uint64_t schedules = 0;
  IncompleteSchedules incomplete;
  std::map<std::string, uint64_t> per_strategy;
  size_t summaries = 0;            // workers that wrote one
  // Summed schedules/s of the workers, each over its own exploring time
  // (from its first fork); 0 when a summary gives no time.
  double exploring_rate = 0;
  bool every_summary_timed = true;
  std::vector<std::string> notes;  // from the summaries, each once
};

std::string default_replay_path(const std::string &program) {
  return "./" + fs::path(program).filename().string() + ".snag-replay.json";
}

// Checked before exploring, so a typo does not cost a whole exploration.
void check_replay_out(const std::string &path) {
  fs::path parent = fs::path(path).parent_path();
  std::error_code error;
  if (!parent.empty() && !fs::is_directory(parent, error)) {
    throw UsageError("cannot write replay file " + path + ": no such directory " + parent.string());
  }
}

// "2.5", "10", "0.000001": the runtime reads digits and one point, no exponent.
std::string decimal_seconds(double seconds) {
  std::string text = fmt::format("{:.6f}", seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

// `from`: the first schedule index this launch runs; `time_limit`: what is
// left of --time-limit.
std::string snag_options_for(const Options &o, const Worker &worker, uint64_t seed,
                             const RacyAccesses &racy, const std::string &failure_bound,
                             const std::string &compare_output, uint64_t from,
                             std::optional<double> time_limit) {
  OptionPairs ours =
      explore_engine_options(worker.findings.path(), worker.explore_out.path(), o.with_race);
  ours.emplace_back("strategy", o.strategy);
  ours.emplace_back("schedules", std::to_string(worker.schedules));
  ours.emplace_back("seed", std::to_string(seed));
  ours.emplace_back("shard", worker.shard);
  if (from > 0) ours.emplace_back("schedule_from", std::to_string(from));
  if (!failure_bound.empty()) ours.emplace_back("failure_bound", failure_bound);
  if (!compare_output.empty()) ours.emplace_back("compare_output", compare_output);
  ours.emplace_back("max_steps", std::to_string(o.max_steps));
  ours.emplace_back("preempt_on_access", o.preempt_on_access ? "1" : "0");
  if (o.eager_threads) ours.emplace_back("lazy_threads", "0");
  if (time_limit) ours.emplace_back("time_limit", decimal_seconds(*time_limit));
  if (o.pct_depth) ours.emplace_back("pct_depth", std::to_string(*o.pct_depth));
  if (!racy.sites.empty()) ours.emplace_back("racy_sites", join_sites(racy.sites));
  if (!racy.addresses.empty()) ours.emplace_back("racy_addresses", join_sites(racy.addresses));
  if (o.schedule_timeout_seconds) {
    ours.emplace_back("schedule_timeout", decimal_seconds(*o.schedule_timeout_seconds));
  }
  const char *user = std::getenv("SNAG_OPTIONS");
  return compose_snag_options(user ? user : "", ours);
}

std::string file_contents(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  if (in.peek() != std::ifstream::traits_type::eof()) out << in.rdbuf();
  return out.str();
}

// Appends the notes `to` does not have yet.
void add_notes_once(std::vector<std::string> &to, const std::vector<std::string> &notes) {
  for (const std::string &note : notes)
    if (std::find(to.begin(), to.end(), note) == to.end()) to.push_back(note);
}

Totals add_up(const std::deque<Worker> &workers) {
  Totals totals;
  for (const Worker &worker : workers) {
    if (!worker.records.summary) continue;
    const SummaryRecord &summary = *worker.records.summary;
    ++totals.summaries;
    totals.schedules += summary.schedules;
    totals.incomplete += summary.incomplete;
    if (summary.seconds > 0)
      totals.exploring_rate += static_cast<double>(summary.schedules) / summary.seconds;
    else
      totals.every_summary_timed = false;
    for (const auto &[strategy, n] : summary.per_strategy) totals.per_strategy[strategy] += n;
    add_notes_once(totals.notes, summary.notes);
  }
  return totals;
}

// The worker whose failure has the lowest schedule index, if any failed.
std::optional<size_t> first_failure(const std::deque<Worker> &workers) {
  std::optional<size_t> best;
  for (size_t w = 0; w < workers.size(); ++w) {
    const auto &failure = workers[w].records.failure;
    if (failure && (!best || failure->schedule < workers[*best].records.failure->schedule))
      best = w;
  }
  return best;
}

std::string format_rate(double per_second) {
  return per_second >= 10 ? fmt::format("{:.0f}", per_second) : fmt::format("{:.1f}", per_second);
}

// "pct 200, random 200"
std::string strategy_counts(const std::map<std::string, uint64_t> &per_strategy) {
  std::string out;
  for (const auto &[strategy, n] : per_strategy)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", strategy, n);
  return out;
}

// The replay file of a failure: the failure record, the options that shape
// scheduling, and the location of the finding it left.
ReplayFile replay_file_for(const ScheduleRecord &failure, const ProgramIdentity &identity,
                           const Options &options, const std::vector<report::Finding> &findings,
                           const std::optional<json> &output_record,
                           std::vector<std::string> &warnings) {
  ReplayFile replay;
  replay.program = identity;
  replay.arguments.assign(options.command.begin() + 1, options.command.end());
  replay.strategy = failure.strategy;
  replay.seed = failure.seed;
  replay.schedule = failure.schedule;
  replay.preempt_on_access = options.preempt_on_access;
  replay.eager_threads = options.eager_threads;
  replay.with_race = options.with_race;
  replay.max_steps = options.max_steps;
  replay.points =
      failure.points.empty() ? default_points(options.preempt_on_access) : failure.points;
  replay.bug.kind = failure.kind;
  replay.bug.message = failure.message;
  replay.preemptions = count_preemptions(failure.decisions);
  replay.decisions = failure.decisions;
  if (failure.kind == "output-mismatch") {
    if (output_record) replay.output = expected_output_from(*output_record);
    if (!replay.output)
      warnings.push_back("the output oracle left no record of schedule 0's output; the replay "
                         "file cannot show the output-mismatch");
  }
  if (failure.truncated) {
    warnings.push_back(
        "the failing schedule made more decisions than the runtime keeps; the replay file holds "
        "the first ones only and may not reproduce the bug");
  }
  auto bug = std::find_if(findings.begin(), findings.end(),
                          [&](const report::Finding &f) { return f.kind == failure.kind; });
  if (bug != findings.end()) {
    replay.bug.location = bug_location(*bug);
    if (replay.bug.message.empty()) replay.bug.message = bug->message;
  } else {
    warnings.push_back("the failing schedule left no " + failure.kind +
                       " finding; the replay file records no location");
  }
  return replay;
}

// Replays the failure once, as `snag replay` would, before it is reported:
// a schedule can fail through something outside the scheduler (a garbage
// exit status, timing, the environment), and a bug that its own replay
// file cannot show is not one to hand a user. Returns whether it reproduced.
bool failure_reproduces(const ReplayFile &replay, const Options &options,
                        const TempFile *shared_stdin, std::vector<std::string> &warnings) {
  // The compared files that are arguments go to a place of this check's
  // own, as in the workers, not to the user's files.
  std::optional<OutputPlaces> places;
  ReplayFile moved = replay;
  if (replay.output) {
    places.emplace(options.compare_files, options.command);
    moved.arguments.assign(places->command().begin() + 1, places->command().end());
  }
  ReplayOutcome outcome = replay_once(
      moved,
      {.decisions = replay.decisions,
       .lenient = false,
       .quiet = true,
       .timeout_seconds = options.timeout_seconds.value_or(Options::kDefaultReplayTimeout),
       .output_paths = places ? places->paths() : std::vector<std::string>()},
      shared_stdin ? shared_stdin->path() : std::string());
  for (const std::string &w : outcome.warnings) warnings.push_back("replay check: " + w);
  return outcome.bug.has_value();
}

// Labels the findings that are the failure which did not reproduce.
void label_unreproduced(std::vector<report::Finding> &findings, const ReplayBug &bug) {
  for (report::Finding &f : findings) {
    if (f.kind != bug.kind || bug_location(f) != bug.location) continue;
    f.title = "not reproducible: " + f.display_title();
    f.severity = "warning";
    if (!f.details.is_object()) f.details = json::object();
    f.details["reproducible"] = false;
  }
}

// ", 3 incomplete" for the closing line.
std::string incomplete_count(const Totals &totals) {
  uint64_t n = totals.incomplete.total();
  return n ? fmt::format(", {} incomplete", n) : "";
}

// "3 of 1000 schedules were incomplete (...)": schedules stopped at a limit
// are not bugs, but they explored less than a finished one would have.
std::optional<std::string> incomplete_note(const Totals &totals, const Options &options) {
  const IncompleteSchedules &cut = totals.incomplete;
  uint64_t n = cut.total();
  if (n == 0) return std::nullopt;
  std::vector<std::string> why;
  if (cut.steps)
    why.push_back(fmt::format("{} at the step limit of {} (--max-steps)", cut.steps,
                              options.max_steps));
  if (cut.time)
    why.push_back(fmt::format("{} at the schedule timeout (--schedule-timeout)",
                              cut.time));
  if (cut.threads)
    why.push_back(fmt::format("{} where a thread could not be created after its pthread_create "
                              "had returned 0 (lazy threads; --eager-threads)",
                              cut.threads));
  std::string reasons = why.front();
  for (size_t i = 1; i < why.size(); ++i) reasons += ", " + why[i];
  return fmt::format(
      "{} of {} schedule{} {} incomplete: stopped before the program ended, without a bug ({})",
      n, totals.schedules, totals.schedules == 1 ? "" : "s", n == 1 ? "was" : "were", reasons);
}

// -j's default: one worker per CPU snag may run on, at most 16 (each worker
// is a copy of the program; beyond that, memory grows faster than the rate).
unsigned default_jobs() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return 1;
  return static_cast<unsigned>(std::clamp(CPU_COUNT(&cpus), 1, 16));
}

// stdin is read to its end before anything runs, into a file each worker
// opens for itself (the fork server then gives every schedule its own
// offset: inputs.cpp), so every schedule of every worker, and the replay
// that checks a failure, start from the same bytes; with several workers
// sharing the real stdin they would all read from one offset. A terminal is
// left alone: one worker inherits it, several get /dev/null (only one
// process group can own it). Null when stdin is a terminal.
std::unique_ptr<TempFile> copy_stdin() {
  if (isatty(STDIN_FILENO)) return nullptr;
  auto copy = std::make_unique<TempFile>("stdin", ".bin");
  std::ofstream out(copy->path(), std::ios::binary | std::ios::trunc);
  char buffer[65536];
  for (;;) {
    ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(std::string("cannot read stdin: ") + std::strerror(errno));
    if (n == 0) break;
    out.write(buffer, n);
  }
  if (!out.flush()) throw UsageError("cannot copy stdin for the workers into " + copy->path());
  return copy;
}

// The file the workers share their lowest failing schedule index through
// (runtime/engines/explore/failure_bound.h): all ones (no failure yet), the
// number of workers, and how many reached their fork point (none yet).
std::unique_ptr<TempFile> failure_bound_file(uint64_t workers) {
  auto file = std::make_unique<TempFile>("bound", ".bin");
  const uint64_t words[3] = {~uint64_t(0), workers, 0};
  std::ofstream out(file->path(), std::ios::binary | std::ios::trunc);
  if (!out.write(reinterpret_cast<const char *>(words), sizeof words).flush())
    throw UsageError("cannot write " + file->path());
  return file;
}

// Everything the launches of one exploration share.
struct Exploration {
  explicit Exploration(const Options &o) : options(o) {}
  const Options &options;
  std::string path;
  uint64_t seed = 0;
  unsigned jobs = 1;
  bool compare = false;
  const TempFile *shared_stdin = nullptr;
  RacyAccesses racy;
  bool race_pass = false;  // the race pass ran (not --no-race-points, --preempt-on-access)
};

// One launch of the workers, from a schedule index on: the exploration
// launches them again after a failure that its replay did not reproduce.
struct Launch {
  explicit Launch(unsigned jobs) : workers(jobs) {}
  std::deque<OutputPlaces> places;  // each worker's compared files
  std::unique_ptr<TempFile> bound;
  std::deque<Worker> workers;
  double seconds = 0;
  std::optional<size_t> failing;
  Totals totals;
  std::string raw_findings;  // the failing worker's, or everyone's when none failed
};

std::unique_ptr<Launch> launch_workers(const Exploration &x, uint64_t from,
                                       std::optional<double> time_limit,
                                       std::optional<double> timeout,
                                       std::vector<std::string> &warnings) {
  const Options &options = x.options;
  auto launch = std::make_unique<Launch>(x.jobs);
  if (x.jobs > 1) launch->bound = failure_bound_file(x.jobs);
  std::vector<RunRequest> requests;
  for (unsigned w = 0; w < x.jobs; ++w) {
    Worker &worker = launch->workers[w];
    // Worker w of shard I/N runs the indices i with i mod (N*J) = I*J+w, so
    // the workers of all shards never run the same schedule.
    worker.shard = fmt::format("{}/{}", uint64_t{options.shard_index} * x.jobs + w,
                               uint64_t{options.shard_count} * x.jobs);
    worker.schedules = options.schedules / x.jobs + (w < options.schedules % x.jobs ? 1 : 0);
    RunRequest request;
    request.path = x.path;
    request.argv = options.command;
    std::string compare_output;
    if (x.compare) {
      const OutputPlaces &own = launch->places.emplace_back(options.compare_files, options.command);
      request.argv = own.command();
      compare_output = own.option_value();
    }
    request.environment = explore_environment(
        snag_options_for(options, worker, x.seed, x.racy,
                         launch->bound ? launch->bound->path() : std::string(), compare_output,
                         from, time_limit));
    request.timeout_seconds = timeout;
    request.disable_aslr = true;
    if (x.shared_stdin)
      request.stdin_path = x.shared_stdin->path();
    else
      request.null_stdin = x.jobs > 1;
    requests.push_back(std::move(request));
  }

  // The workers stop by themselves past the lowest failure any of them
  // found (the failure bound), so the result does not depend on their pace.
  Clock::time_point start = Clock::now();
  std::vector<RunResult> results;
  try {
    results = run_programs(requests);
  } catch (const std::runtime_error &e) {
    throw UsageError(e.what());
  }
  launch->seconds = std::chrono::duration<double>(Clock::now() - start).count();

  for (size_t w = 0; w < x.jobs; ++w) {
    Worker &worker = launch->workers[w];
    worker.result = results[w];
    // A worker we stopped may have been cut off mid-line; that is expected.
    std::string source = x.jobs > 1 ? fmt::format("explore_out of worker {}", w) : "explore_out";
    worker.records = read_explore_records_file(worker.explore_out.path(), source,
                                               worker.result.stopped ? nullptr : &warnings);
  }
  launch->failing = first_failure(launch->workers);
  launch->totals = add_up(launch->workers);
  for (size_t w = 0; w < x.jobs; ++w) {
    if (launch->failing && w != *launch->failing) continue;
    std::string part = file_contents(launch->workers[w].findings.path());
    if (!part.empty() && part.back() != '\n') part += '\n';
    launch->raw_findings += part;
  }
  return launch;
}

// The launch's schedules/s: each worker's schedules over its own time from
// its first fork, so the program's start-up (and the race pre-pass) do not
// make a run that failed in its first schedules look slow. Workers run side
// by side at about the same pace, so those that were stopped before writing
// a summary count as fast as the others.
double launch_rate(const Launch &launch, unsigned jobs) {
  const Totals &t = launch.totals;
  if (t.summaries == 0) return 0;
  if (t.every_summary_timed) return t.exploring_rate * jobs / static_cast<double>(t.summaries);
  if (launch.seconds <= 0) return 0;
  return static_cast<double>(t.schedules) / launch.seconds * jobs / static_cast<double>(t.summaries);
}

// What the launches so far did together.
struct Explored {
  Totals totals;             // schedules, incomplete ones, strategies and notes
  bool complete = true;      // every worker of every launch wrote its summary
  double rated_seconds = 0;  // sum over launches of schedules / rate
  uint64_t rated_schedules = 0;
  double rate() const { return rated_seconds > 0 ? rated_schedules / rated_seconds : 0; }
};

void add_launch(Explored &explored, const Launch &launch, unsigned jobs) {
  const Totals &t = launch.totals;
  Totals &all = explored.totals;
  all.schedules += t.schedules;
  all.incomplete += t.incomplete;
  for (const auto &[strategy, n] : t.per_strategy) all.per_strategy[strategy] += n;
  add_notes_once(all.notes, t.notes);
  explored.complete = explored.complete && t.summaries == jobs;
  double rate = launch_rate(launch, jobs);
  if (rate > 0 && t.schedules > 0) {
    explored.rated_seconds += static_cast<double>(t.schedules) / rate;
    explored.rated_schedules += t.schedules;
  }
}

// Whether every worker of the launch ended by itself: not at --timeout and
// not by a signal the user sent snag (Ctrl-C).
bool ended_by_itself(const Launch &launch) {
  return std::none_of(launch.workers.begin(), launch.workers.end(), [](const Worker &w) {
    return w.result.timed_out || w.result.forwarded_signal != 0;
  });
}

// How many failures that their replay does not reproduce the exploration
// goes on after. Such a failure came from outside the schedule (time,
// randomness, a file an earlier run left); a program that fails that way
// again and again is not one more schedules will tell anything about.
constexpr size_t kMaxUnreproduced = 3;

// What is left of `limit` after `elapsed` seconds (all of it before the
// first launch); nullopt when no limit.
std::optional<double> remaining(std::optional<double> limit, double elapsed) {
  if (!limit || elapsed == 0) return limit;
  return std::max(*limit - elapsed, 0.001);
}

}  // namespace

int run_explore(const Options &options) {
  Format format = parse_format(options.format);
  Destination out = report_destination(options.output, format);
  std::string replay_path = options.replay_out.empty()
                                ? default_replay_path(options.command.front())
                                : options.replay_out;
  check_replay_out(replay_path);

  Exploration x(options);
  x.path = resolve_program(options.command.front());
  // Identified before the run: the replay file must name the binary that ran.
  ProgramIdentity identity;
  try {
    identity = identify_program(x.path);
  } catch (const std::runtime_error &e) {
    throw UsageError(e.what());
  }

  // Every worker gets the same seed (schedule i's seed derives from it and i),
  // so the run can be repeated with --seed even when the user gave none.
  x.seed = options.seed ? *options.seed : std::random_device{}();
  // No worker without a schedule to run.
  x.jobs = static_cast<unsigned>(
      std::min<uint64_t>(options.jobs ? options.jobs : default_jobs(), options.schedules));
  // --compare-output: each worker writes the compared files that are
  // arguments in a place of its own; a file the program names itself would
  // be shared by the workers, so then there is one.
  x.compare = options.compare_output || !options.compare_files.empty();
  std::vector<std::string> compare_notes;
  if (x.compare) {
    check_compare_files(options.compare_files);
    for (const std::string &file : options.compare_files) {
      if (x.jobs > 1 && !names_argument(options.command, file)) {
        compare_notes.push_back(fmt::format(
            "--compare-file {} is not one of the program's arguments, so the workers would write "
            "the same file: explored with 1 worker instead of {}",
            file, x.jobs));
        x.jobs = 1;
      }
    }
  }
  std::unique_ptr<TempFile> shared_stdin = copy_stdin();
  x.shared_stdin = shared_stdin.get();
  // Every access is a point already with --preempt-on-access.
  if (!options.no_race_points && !options.preempt_on_access) {
    // The race pass runs the program too: not into the user's compared files.
    std::optional<OutputPlaces> race_places;
    if (x.compare) race_places.emplace(options.compare_files, options.command);
    RacePassRequest pass;
    pass.path = x.path;
    pass.argv = race_places ? race_places->command() : options.command;
    // The schedules' own stdin, so the pass reads what they read.
    if (x.shared_stdin) pass.stdin_path = x.shared_stdin->path();
    pass.max_steps = options.max_steps;
    x.racy = racy_accesses(pass);
    x.race_pass = true;
  }

  // Launch the workers, and launch them again after a failure that its
  // replay does not reproduce: it is reported, labelled, and the rest of the
  // budget is explored from the schedule after it.
  Clock::time_point start = Clock::now();
  std::vector<std::string> warnings;
  std::vector<std::string> resume_notes;
  std::vector<report::Finding> unreproduced;  // earlier launches' failures, labelled
  json unreproduced_json = json::array();
  Explored explored;
  std::unique_ptr<Launch> launch;
  std::vector<report::Finding> findings;
  std::optional<ReplayFile> replay;
  bool replay_written = false;
  std::optional<bool> reproduced;
  std::string kept_findings;
  for (uint64_t from = 0;;) {
    double elapsed = from == 0 ? 0 : std::chrono::duration<double>(Clock::now() - start).count();
    launch = launch_workers(x, from, remaining(options.time_limit_seconds, elapsed),
                            remaining(options.timeout_seconds, elapsed), warnings);
    add_launch(explored, *launch, x.jobs);
    kept_findings += launch->raw_findings;
    std::istringstream raw_in(launch->raw_findings);
    findings = load_findings(raw_in, "findings", x.path, warnings);

    replay.reset();
    replay_written = false;
    reproduced.reset();
    if (!launch->failing) break;
    replay = replay_file_for(*launch->workers[*launch->failing].records.failure, identity, options,
                             findings, launch->workers[*launch->failing].records.output, warnings);
    try {
      write_replay_file(replay_path, *replay);
      replay_written = true;
    } catch (const std::runtime_error &e) {
      warnings.push_back(e.what());
    }
    reproduced = failure_reproduces(*replay, options, x.shared_stdin, warnings);
    if (*reproduced) break;
    label_unreproduced(findings, replay->bug);
    unreproduced_json.push_back({{"schedule", replay->schedule},
                                 {"kind", replay->bug.kind},
                                 {"location", replay->bug.location}});
    std::string failed = fmt::format("schedule {} failed ({}), but replaying it did not",
                                     replay->schedule,
                                     describe_bug(replay->bug.kind, replay->bug.location));
    bool go_on = !options.count_unreproducible && unreproduced_json.size() < kMaxUnreproduced &&
                 replay->schedule + 1 < options.schedules * uint64_t{options.shard_count} &&
                 ended_by_itself(*launch) &&
                 (!options.time_limit_seconds ||
                  std::chrono::duration<double>(Clock::now() - start).count() <
                      *options.time_limit_seconds);
    if (!go_on) {
      std::string stopped =
          unreproduced_json.size() >= kMaxUnreproduced && !options.count_unreproducible
              ? fmt::format(" (the {}th such failure: exploring stopped there)", kMaxUnreproduced)
              : "";
      resume_notes.push_back(fmt::format(
          "{}: reported as not reproducible{}{}", failed,
          options.count_unreproducible ? "" : ", and not counted as a bug", stopped));
      break;
    }
    resume_notes.push_back(fmt::format("{}: reported as not reproducible; explored on from "
                                       "schedule {}",
                                       failed, replay->schedule + 1));
    for (const report::Finding &f : findings)
      if (f.details.is_object() && f.details.value("reproducible", true) == false)
        unreproduced.push_back(f);
    from = replay->schedule + 1;
  }
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // From here on only snag writes; see run_engine. (Not before: the program
  // runs in every launch and in the replay check, and inherits what is
  // ignored.)
  std::signal(SIGPIPE, SIG_IGN);
  // The bug found, if any, comes first; what did not reproduce after it.
  findings.insert(findings.end(), unreproduced.begin(), unreproduced.end());
  if (!options.keep_findings.empty()) {
    std::ofstream keep(options.keep_findings, std::ios::binary | std::ios::trunc);
    if (!(keep << kept_findings) || !keep.flush()) {
      warnings.push_back("cannot keep the findings in " + options.keep_findings);
    }
  }

  const std::deque<Worker> &workers = launch->workers;
  const std::optional<size_t> &failing = launch->failing;
  const Totals &totals = explored.totals;
  // The run the report describes: the failing worker, else one that ended badly.
  size_t reported = failing.value_or(0);
  for (size_t w = 0; !failing && w < x.jobs; ++w) {
    if (workers[w].result.shell_status() != 0) {
      reported = w;
      break;
    }
  }
  report::RunInfo run =
      describe_run("explore", options.command, workers[reported].result, options.timeout_seconds);
  // A worker snag stopped died of snag's SIGTERM, which says nothing about the program.
  if (workers[reported].result.stopped) run.notes.clear();
  run.warnings.insert(run.warnings.begin(), warnings.begin(), warnings.end());
  run.notes.insert(run.notes.end(), totals.notes.begin(), totals.notes.end());
  if (auto note = incomplete_note(totals, options)) run.notes.push_back(*note);
  run.notes.insert(run.notes.end(), compare_notes.begin(), compare_notes.end());
  run.notes.insert(run.notes.end(), resume_notes.begin(), resume_notes.end());
  // A name the program never writes compares nothing: most likely a typo.
  for (size_t f = 0; x.compare && !failing && f < options.compare_files.size(); ++f) {
    std::error_code error;
    if (!launch->places.empty() && !fs::exists(launch->places.front().paths()[f], error))
      run.warnings.push_back("--compare-file " + options.compare_files[f] +
                             ": the program never wrote it (not the name it writes?)");
  }
  // A program that was killed (Ctrl-C, --timeout) had no chance to write one.
  bool all_exited = std::none_of(workers.begin(), workers.end(),
                                 [](const Worker &w) { return w.result.signaled; });
  if (launch->totals.summaries == 0 && !failing && all_exited) {
    run.warnings.push_back(
        "the program wrote no explore summary (did it end before the runtime started exploring?)");
  }

  bool counts = !reproduced || *reproduced || options.count_unreproducible;
  double rate = explored.rate();
  json failure_json = nullptr;
  if (failing) {
    failure_json = {{"schedule", replay->schedule},
                    {"strategy", replay->strategy},
                    {"seed", replay->seed},
                    {"kind", replay->bug.kind},
                    {"location", replay->bug.location},
                    {"preemptions", replay->preemptions},
                    {"decisions", replay->decisions},
                    {"reproduced", *reproduced}};
  }
  json explore = {{"strategy", options.strategy},
                  {"seed", x.seed},
                  {"workers", x.jobs},
                  {"shard", fmt::format("{}/{}", options.shard_index, options.shard_count)},
                  {"schedules", totals.schedules},  // a lower bound unless complete
                  {"schedules_complete", explored.complete},
                  {"schedules_incomplete", incomplete_json(totals.incomplete)},
                  {"seconds", seconds},
                  {"schedules_per_second", rate},
                  {"per_strategy", totals.per_strategy},
                  {"failure", failure_json},
                  // Failures of earlier launches that did not reproduce either.
                  {"not_reproduced", unreproduced_json},
                  {"replay_file", replay_written ? json(replay_path) : json(nullptr)},
                  {"compare_output", x.compare ? json(options.compare_files) : json(nullptr)},
                  // The points the race pass added to every schedule (the
                  // same for the same program and arguments: the pass's
                  // schedules come from a fixed seed), and how many it ran.
                  {"race_pass", x.race_pass ? json{{"schedules", x.racy.schedules},
                                                   {"seed", kRacePassSeed},
                                                   {"sites", x.racy.sites},
                                                   {"addresses", x.racy.addresses}}
                                            : json(nullptr)},
                  // So that `snag merge` can tell shards of another build apart.
                  {"program_fnv1a64", identity.fnv1a64}};
  run.details = json::object({{"explore", explore}});

  present_report(out, format, options.color, findings, run);

  if (failing && counts) {
    // Schedule indices are shared out among the workers, so a count that
    // leaves out stopped workers would be smaller than the failing index.
    std::string of = explored.complete ? fmt::format(" of {}", totals.schedules) : "";
    // The seed that repeats the exploration (--seed), not the schedule's own.
    print_command_note(
        "explore", fmt::format("bug found in schedule {}{} (strategy {}, seed {}{}), {} schedules/s",
                               replay->schedule, of, replay->strategy, x.seed,
                               x.jobs > 1 ? fmt::format(", {} workers", x.jobs) : "",
                               format_rate(rate)));
    if (replay_written) {
      print_command_note("explore", "replay it: snag replay " + shell_quote(replay_path));
      if (replay->preemptions > 0) {
        print_command_note("explore",
                           "shrink it: snag replay --shrink " + shell_quote(replay_path));
      }
    }
    return options.exitcode;
  }
  if (launch->totals.summaries > 0 || !unreproduced.empty()) {
    std::string strategies = strategy_counts(totals.per_strategy);
    print_command_note(
        "explore", fmt::format("no bug found in {} schedule{}{} ({} schedules/s{})", totals.schedules,
                               totals.schedules == 1 ? "" : "s", incomplete_count(totals),
                               format_rate(rate),
                               strategies.empty() ? "" : ", strategies " + strategies));
  }
  if (!unreproduced_json.empty()) {
    std::string which;
    for (const json &u : unreproduced_json)
      which += fmt::format("{}{}", which.empty() ? "" : ", ", u["schedule"].get<uint64_t>());
    print_command_note("explore",
                       fmt::format("schedule{} {} failed but did not reproduce under replay; not "
                                   "counted as a bug (--count-unreproducible counts it)",
                                   unreproduced_json.size() == 1 ? "" : "s", which));
    bool others = std::any_of(findings.begin(), findings.end(), [](const report::Finding &f) {
      return !(f.details.is_object() && f.details.value("reproducible", true) == false);
    });
    return others ? options.exitcode : 0;
  }
  return findings.empty() ? workers[reported].result.shell_status() : options.exitcode;
}

}  // namespace snag::cli
