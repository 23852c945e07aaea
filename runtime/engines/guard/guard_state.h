// What the guard engine's files share (guard_engine.cpp, invariants_io.cpp,
// expose.cpp): the run's parameters, the site-pair tables and the stall
// counters. Set up once in GuardEngine::on_start, before any thread runs.
#pragma once

#include <atomic>
#include <stdint.h>

#include "engines/guard/site_pairs.h"

namespace snag::guard {

enum class Mode { kLearn, kGuard, kExpose };

struct Params {
  Mode mode = Mode::kGuard;
  const char *invariants = nullptr;
  const char *learn_out = nullptr;
  uint32_t stall_ms = 1;
  uint32_t max_stall_ms = 10;
  uint32_t expose_stall_ms = 1000;
};
extern Params g_params;

// BSet(S) from the invariants file: member pairs (S, P), and per site a
// summary (kFactSummary: count = |BSet(S)|, extra = chain of members), and
// the lock facts (kFactLock) expose plans with.
extern SitePairs g_bsets;
extern bool g_checking;  // invariants loaded: check accesses against them
// What this run saw (learn mode): (S, RPre) pairs and facts.
extern SitePairs g_learned;
// Pairs of sites that touched the same address (for bias groups).
extern SitePairs g_edges;
// Expose: stall points (P or its lock site, kFactStallFor; extra = S) and
// the successors they wait for (kFactWatched; extra = 1 once S ran).
extern SitePairs g_expose;

extern int g_owner_pid;            // the process that writes learn_out
extern const char *g_program;      // the program's file name, for the files

// Every stall started so far (guard and expose); test programs poll it
// through __snag_guard_stalls() (tests/guard/suite/guard_test.h).
extern std::atomic<uint64_t> g_stalls;
// How many threads are stalled (or held by expose) right now.
extern std::atomic<int> g_stalling;

// Sleeps on the raw system call (not the program's intercepted nanosleep).
void sleep_ms(uint32_t ms);

}  // namespace snag::guard
