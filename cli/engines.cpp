#include "engines.h"

namespace snag::cli {

namespace {

// clang-format off
constexpr Engine kEngines[] = {
  // name      mode                  runtime    available  summary
  {"race",    EngineMode::kRun,     "race",    true,  "find data races (adaptive lockset + happens-before)"},
  {"tsv",     EngineMode::kTsv,     "tsv",     true,  "find concurrent misuse of thread-unsafe APIs: std:: containers, strings, MT-unsafe libc"},
  {"explore", EngineMode::kExplore, "explore", true,  "explore thread interleavings for crashes, assertion failures, deadlocks, hangs"},
  {"replay",  EngineMode::kReplay,  "explore", true,  "replay a failing interleaving found by `snag explore`"},
  {"learn",   EngineMode::kGuard,   "learn",   true,  "learn the access orders of correct runs"},
  {"guard",   EngineMode::kGuard,   "guard",   true,  "stall threads before access orders never seen in correct runs"},
  {"expose",  EngineMode::kGuard,   "expose",  true,  "force rare access orders to expose atomicity and order violations"},
  {"check",   EngineMode::kCheck,   "",        true,  "find races and deadlocks statically, from source, without running"},
  {"events",  EngineMode::kEvents,  "record",  true,  "run PROGRAM and print every event the runtime sees (a debugging aid)"},
  {"report",  EngineMode::kReport,  "",        true,  "render an existing findings file (JSON lines) as text, JSON or SARIF"},
  {"merge",   EngineMode::kMerge,   "",        true,  "merge --format json reports (such as the shards of 'explore --shard I/N') into one report"},
};
// clang-format on

}  // namespace

std::span<const Engine> engines() { return kEngines; }

const Engine *find_engine(std::string_view name) {
  for (const Engine &engine : kEngines)
    if (engine.name == name) return &engine;
  return nullptr;
}

}  // namespace snag::cli
