// Every SNAG_OPTIONS key the runtime knows, with its type, default, range
// and help: the one table that parsing and validation (core/options.cpp),
// `snag --help-options` and docs/options.md all come from, so they cannot
// disagree. Header-only and dependency-free: the runtime (which cannot use
// the C++ library) and the snag command both include it.
#pragma once

#include <stdint.h>

namespace snag {

enum class OptionType : uint8_t {
  kText,     // any value without spaces or ':'
  kChoice,   // one of `choices`, separated by '|'
  kPath,     // a file name
  kCount,    // a whole number in [min, max]
  kFlag,     // 0/1 (also true/false, yes/no)
  kSeconds,  // a decimal number of seconds, such as 2.5
};

struct OptionSpec {
  const char *name;
  OptionType type;
  const char *default_text;  // as documented; nullptr = unset
  uint64_t min;              // kCount only
  uint64_t max;              // kCount only
  const char *choices;       // kChoice only
  const char *engine;        // which engine reads it ("all" = every engine)
  const char *help;
};

inline constexpr uint64_t kNoLimit = ~uint64_t{0};

// clang-format off
inline constexpr OptionSpec kOptionSpecs[] = {
  // name                 type                  default   min max        choices  engine     help
  {"engine",              OptionType::kText,    "race",   0, 0,          nullptr, "all",     "which engine runs: race, tsv, explore, learn, guard, expose, record (every event, for tests), none; several joined by '+' run together, the first leading (explore+race)"},
  {"findings",            OptionType::kPath,    nullptr,  0, 0,          nullptr, "all",     "append findings as JSON lines to this file"},
  {"findings_fd",         OptionType::kCount,   nullptr,  0, 1048575,    nullptr, "all",     "write findings as JSON lines to this open descriptor"},
  {"format",              OptionType::kChoice,  "text",   0, 0,          "text|json", "all", "with neither findings nor findings_fd: text prints ThreadSanitizer-style reports on stderr, json prints JSON lines there"},
  {"exitcode",            OptionType::kCount,   "66",     0, 255,        nullptr, "all",     "exit status of a program run alone that reported findings; 0 keeps the program's own status"},
  {"halt_on_error",       OptionType::kFlag,    "0",      0, 0,          nullptr, "all",     "1: exit after the first finding"},
  {"report_bugs",         OptionType::kFlag,    "1",      0, 0,          nullptr, "all",     "0: run the engines but report no findings (ThreadSanitizer's key of that name, which a program's __tsan_default_options() may set)"},
  {"seed",                OptionType::kCount,   nullptr,  0, kNoLimit,   nullptr, "all",     "seed of every random choice (unset: taken from the clock); printed with the findings"},
  {"suppressions",        OptionType::kPath,    nullptr,  0, 0,          nullptr, "all",     "a ThreadSanitizer-style suppressions file (race:, race_top:, called_from_lib:, thread:)"},
  {"verbosity",           OptionType::kFlag,    "0",      0, 0,          nullptr, "all",     "1: print the runtime's start-up decisions on stderr"},
  {"mutex_spin",          OptionType::kCount,   "4",      0, 1000,       nullptr, "all",     "times pthread_mutex_lock tries a held mutex, waiting briefly for it to be released between tries, before it sleeps in the kernel (0: sleep at once; always 0 with one CPU)"},
  {"report_object_level", OptionType::kFlag,    "0",      0, 0,          nullptr, "race",    "1: report races RaceTrack saw only at object level too"},
  {"report_each_address", OptionType::kFlag,    "0",      0, 0,          nullptr, "race",    "1: report a race of the same two sites once per 8-byte granule (at most 64 more per run), not once per run (explore's race pass: every racy address becomes a scheduling point)"},
  {"potential",           OptionType::kFlag,    "0",      0, 0,          nullptr, "race",    "1: also report potential races, accesses with no common lock ordered only through locks (ranked below real races)"},
  {"delay_ms",            OptionType::kCount,   "100",    1, 60000,      nullptr, "tsv",     "delay injected at a call that nearly met a conflicting one"},
  {"near_miss_ms",        OptionType::kCount,   "100",    1, 60000,      nullptr, "tsv",     "two conflicting calls this close are a near miss"},
  {"phase_calls",         OptionType::kCount,   "16",     2, 64,         nullptr, "tsv",     "calls remembered per thread to tell a concurrent phase"},
  {"hb_percent",          OptionType::kCount,   "50",     1, 100,        nullptr, "tsv",     "a thread whose call came this share of a delay late was blocked by it"},
  {"hb_calls",            OptionType::kCount,   "5",      0, 1000,       nullptr, "tsv",     "calls of a blocked thread taken as ordered after the delay"},
  {"decay_percent",       OptionType::kCount,   "10",     0, 100,        nullptr, "tsv",     "probability a trap loses after a delay that caught nothing"},
  {"max_thread_delay_ms", OptionType::kCount,   "5000",   0, 3600000,    nullptr, "tsv",     "total delay one thread may be given"},
  {"trap_file",           OptionType::kPath,    nullptr,  0, 0,          nullptr, "tsv",     "dangerous pairs of calls carried from run to run"},
  {"invariants",          OptionType::kPath,    nullptr,  0, 0,          nullptr, "guard",   "the invariants file (BSets) that guard and expose check accesses against; given to learn, it makes learn check-only (--relax)"},
  {"learn_out",           OptionType::kPath,    nullptr,  0, 0,          nullptr, "guard",   "learn: write what the run saw (BSets, counts, edges, locks) to this file at exit"},
  {"stall_ms",            OptionType::kCount,   "1",      1, 1000,       nullptr, "guard",   "guard: length of one stall step before the invariant is checked again"},
  {"max_stall_ms",        OptionType::kCount,   "10",     0, 60000,      nullptr, "guard",   "guard: longest stall of one access (0: report only, never stall)"},
  {"expose_stall_ms",     OptionType::kCount,   "1000",   1, 600000,     nullptr, "guard",   "expose: longest hold of a thread at a stall point, waiting for the access it usually follows"},
  {"strategy",            OptionType::kChoice,  "portfolio", 0, 0,       "random|pct|delay-bound|preempt-bound|vb|pctvb|cover|portfolio", "explore", "how schedules are chosen"},
  {"schedules",           OptionType::kCount,   "1000",   1, kNoLimit,   nullptr, "explore", "how many schedules this process runs at most"},
  {"time_limit",          OptionType::kSeconds, "0",      0, 0,          nullptr, "explore", "seconds this process may explore (0: no limit)"},
  {"schedule_from",       OptionType::kCount,   "0",      0, kNoLimit,   nullptr, "explore", "the first schedule index to run: lower ones count as run (explore goes on after a failure its replay did not reproduce)"},
  {"shard",               OptionType::kText,    "0/1",    0, 0,          nullptr, "explore", "I/N: run only the schedules whose index is I modulo N"},
  {"failure_bound",       OptionType::kPath,    nullptr,  0, 0,          nullptr, "explore", "8-byte file the -j workers share: the lowest failing schedule index, after which none runs"},
  {"pct_depth",           OptionType::kCount,   "3",      1, 64,         nullptr, "explore", "PCT bug depth d (d-1 priority change points)"},
  {"preempt_on_access",   OptionType::kFlag,    "0",      0, 0,          nullptr, "explore", "1: instrumented memory accesses are scheduling points too"},
  {"lazy_threads",        OptionType::kFlag,    "1",      0, 0,          nullptr, "explore", "1: a thread created with default attributes gets its kernel thread at its first turn, not in pthread_create (fewer context switches); 0: at once"},
  {"max_steps",           OptionType::kCount,   "200000", 1, kNoLimit,   nullptr, "explore", "scheduling steps before a schedule stops (a livelock when nothing changes any more, else incomplete)"},
  {"schedule_timeout",    OptionType::kSeconds, "10",     0, 0,          nullptr, "explore", "wall-clock seconds before a schedule is stopped as incomplete"},
  {"explore_out",         OptionType::kPath,    nullptr,  0, 0,          nullptr, "explore", "file the engine appends its records to"},
  {"replay",              OptionType::kPath,    nullptr,  0, 0,          nullptr, "explore", "a decisions file: run exactly this schedule, unforked"},
  {"replay_lenient",      OptionType::kFlag,    "0",      0, 0,          nullptr, "explore", "1: when a recorded decision is impossible, keep the current thread instead of failing"},
  {"compare_output",      OptionType::kPath,    nullptr,  0, 0,          nullptr, "explore", "compare each schedule's stdout with schedule 0's: 'stdout', or a file listing output files to compare too (PATH<tab>NAME lines)"},
  {"stdin_copy",          OptionType::kPath,    nullptr,  0, 0,          nullptr, "explore", "file the fork server writes a piped stdin to, as it read it for the schedules"},
  {"points",              OptionType::kText,    "sync",   0, 0,          nullptr, "explore", "with replay: the scheduling points of the recorded schedule (sync, accesses, or a vb plan's variables)"},
  {"racy_sites",          OptionType::kText,    nullptr,  0, 0,          nullptr, "explore", "comma-separated hex site ids of accesses a race pass flagged: scheduling points in every schedule"},
  {"racy_addresses",      OptionType::kText,    nullptr,  0, 0,          nullptr, "explore", "comma-separated hex addresses a race pass flagged: accesses to them are scheduling points in every schedule"},
  {"events",              OptionType::kPath,    nullptr,  0, 0,          nullptr, "record",  "write the event stream to this file (default stderr)"},
  {"record_accesses",     OptionType::kFlag,    "1",      0, 0,          nullptr, "record",  "0: leave plain reads and writes out of the event stream"},
  {"record_only",         OptionType::kText,    nullptr,  0, 0,          nullptr, "record",  "a comma-separated list of event kinds to keep"},
  {"report_on",           OptionType::kText,    nullptr,  0, 0,          nullptr, "record",  "report a finding at every event of this kind (tests the findings path)"},
};
// clang-format on

inline constexpr int kOptionCount = int(sizeof(kOptionSpecs) / sizeof(kOptionSpecs[0]));

inline const char *option_type_name(OptionType type) {
  switch (type) {
    case OptionType::kText: return "text";
    case OptionType::kChoice: return "choice";
    case OptionType::kPath: return "path";
    case OptionType::kCount: return "number";
    case OptionType::kFlag: return "0|1";
    case OptionType::kSeconds: return "seconds";
  }
  return "?";
}

}  // namespace snag
