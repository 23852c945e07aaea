// The race pass before `snag explore`: the program runs a few schedules
// under the explore engine with the race engine observing, and the access
// sites and addresses of their data-race findings become scheduling points
// of every schedule (the explore engine's `racy_sites` and `racy_addresses`
// keys), so races between plain accesses are within reach of every strategy
// without making all accesses points (docs/explore.md, "Racy accesses are
// scheduling points"). The pass's schedules are chosen by a fixed seed, not
// by the machine's timing, so the same program and arguments give the same
// points on a quiet machine and a loaded one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace snag::cli {

// How many schedules the pass runs, and the seed that picks them (the
// random strategy): one schedule orders the threads' lock sections one way
// and misses a race that only another order leaves unordered; the races of
// these few are united (docs/explore.md says why four).
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
};

// Each once, in the order found; empty when the pass found no race. What
// the schedules reported before a crash, a deadlock or the timeout counts.
RacyAccesses racy_accesses(const RacePassRequest &request);

// "a,b,..." for the `racy_sites` and `racy_addresses` keys.
std::string join_sites(const std::vector<std::string> &sites);

}  // namespace snag::cli
