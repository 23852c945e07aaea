// The race pass before `snag explore`: the program runs once under the race
// engine, and the access sites and addresses of its data-race findings
// become scheduling points of every schedule (the explore engine's
// `racy_sites` and `racy_addresses` keys), so races between plain accesses
// are within reach of every strategy without making all accesses points
// (docs/explore.md, "Racy accesses are scheduling points").
#pragma once

#include <string>
#include <vector>

namespace snag::cli {

struct RacePassRequest {
  std::string path;               // the program
  std::vector<std::string> argv;  // argv[0] included
  double timeout_seconds = 10;
};

struct RacyAccesses {
  std::vector<std::string> sites;      // hex site ids, as the findings write them
  std::vector<std::string> addresses;  // hex, without "0x"
};

// Each once, in the order found; empty when the pass found no race.
RacyAccesses racy_accesses(const RacePassRequest &request);

// "a,b,..." for the `racy_sites` and `racy_addresses` keys.
std::string join_sites(const std::vector<std::string> &sites);

}  // namespace snag::cli
