// The engines `snag` knows, in the order `snag --help` lists them.
//
// Turning an engine on in this build is a one-line change: set its
// `available` to true (and make sure the runtime understands its
// `runtime_engine` value, docs/options.md).
#pragma once

#include <span>
#include <string_view>

namespace snag::cli {

enum class EngineMode {
  kRun,     // run PROGRAM under a runtime engine and report its findings
  kEvents,  // run PROGRAM under the `record` engine and print its event stream
  kReport,  // render an existing findings file
  kExplore, // run PROGRAM under the `explore` engine (J workers) and write a replay file
  kReplay,  // run the schedule of a replay file again (or shrink it)
  kTsv,     // run PROGRAM under the `tsv` engine N times, carrying the trap file
  kCheck,   // compile sources to bitcode and interpret them; no program runs
  kGuard,   // learn / guard / expose around an invariants file
  kMerge,   // merge --format json reports (such as explore's shards) into one
};

struct Engine {
  std::string_view name;            // the subcommand: `snag <name>`
  EngineMode mode;
  std::string_view runtime_engine;  // the `engine=` value put in SNAG_OPTIONS
  bool available;                   // part of this build
  std::string_view summary;         // one line for `snag --help`
};

std::span<const Engine> engines();

// The engine with this name, or nullptr.
const Engine *find_engine(std::string_view name);

}  // namespace snag::cli
