// The entry point of `snag check`'s interpreter (issue 12, paper 001): takes
// one linked LLVM module (all translation units of a target, at -O0 plus
// mem2reg, with debug info), interprets it many times under a seeded random
// scheduler in a sandbox, and returns the races and deadlocks it saw. The
// front end (compiling, caching, linking, compile_commands.json) and the
// output (text, JSON, SARIF) live in cli/; this side knows nothing of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interp/site.h"

namespace llvm {
class Module;
}

namespace snag::interp {

struct CheckOptions {
  uint64_t seed = 4711;
  uint64_t max_steps_total = 10'000'000;  // over all runs of all entries
  uint64_t max_steps_per_run = 1'000'000;
  uint64_t heap_bytes = 8u << 20;         // model heap per run
  unsigned max_frames = 50;
  unsigned max_threads = 105;
};

// One side of a finding: where, in the innermost user frame (never inside a
// system header), and by which model thread, described for a person
// ("main thread", "thread T1 started at worker.cc:12:5").
struct FindingSide {
  SourceSite site;
  std::string thread;       // human description of the thread
  bool is_write = false;    // races only
  std::string function;     // demangled name of the innermost user function
};

struct CheckFinding {
  enum class Kind { kRace, kDeadlock };
  Kind kind = Kind::kRace;
  std::string variable;             // races: the memory's name if known ("counter", "obj->count")
  std::string entry;                // the entry the run started from ("main", "TEST(Pool, Grows)")
  std::vector<FindingSide> sides;   // races: exactly 2; deadlocks: every acquisition of the cycle
  std::string message;              // one line, e.g. "data race on 'counter'"
};

// Something the interpreter could not follow (inline asm, an unsupported
// intrinsic): that path became unknown. Reported once per site, never fatal.
struct CheckNote {
  SourceSite site;
  std::string message;
};

struct CheckResult {
  std::vector<CheckFinding> findings;  // deduplicated by site set, in a stable order
  std::vector<CheckNote> notes;
  uint64_t steps = 0;
  uint64_t runs = 0;
  std::vector<std::string> entries;    // entries that were interpreted
};

// Never throws on unsupported IR; throws std::runtime_error only for a module
// with no entry at all, with a one-line message.
CheckResult CheckModule(llvm::Module& module, const CheckOptions& options);

}  // namespace snag::interp
