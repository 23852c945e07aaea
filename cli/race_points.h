// The race pass before `snag explore`: the program runs under the explore
// engine with the race engine observing, for up to a few seeded schedules,
// and the access sites and addresses of the data races of the first schedule
// that reports any become scheduling points of every schedule (the explore
// engine's `racy_sites` and `racy_addresses` keys), so races between plain
// accesses are within reach of every strategy without making all accesses
// points (docs/explore.md, "Racy accesses are scheduling points"). The
// pass's schedules come from a fixed seed, not from the machine's timing, so
// the same program and arguments give the same points on a quiet machine and
// a loaded one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace snag::cli {

// The pass's schedules at most, and the seed that picks them (the random
// strategy). One schedule can order two threads' lock sections so that no
// race shows (a write after an unlock races with the other thread's
// critical section only when that one locks after the unlock); the next
// schedules order them otherwise.
inline constexpr uint64_t kRacePassSchedules = 4;
inline constexpr uint64_t kRacePassSeed = 1;

struct RacePassRequest {
  std::string path;               // the program
  std::vector<std::string> argv;  // argv[0] included
  std::string stdin_path;         // the program's stdin, as the schedules get it; "" for /dev/null
  uint64_t max_steps = 200000;    // the exploration's step limit
  double timeout_seconds = 10;    // for the whole pass
};

struct RacyAccesses {
  std::vector<std::string> sites;      // hex site ids, as the findings write them
  std::vector<std::string> addresses;  // hex, without "0x"
  uint64_t schedules = 0;              // the pass's schedules that ran
};

// Each once, in the order found; empty when the pass found no race (or ended
// at a crash, a deadlock or its timeout before any).
RacyAccesses racy_accesses(const RacePassRequest &request);

// "a,b,..." for the `racy_sites` and `racy_addresses` keys.
std::string join_sites(const std::vector<std::string> &sites);

}  // namespace snag::cli
