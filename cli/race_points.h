// The race pass before `snag explore`: the program runs once under the race
// engine, and the access sites of its data-race findings become scheduling
// points of every schedule (the explore engine's `racy_sites` key), so races
// between plain accesses are within reach of every strategy without making
// all accesses points (docs/explore.md, "Racy accesses").
#pragma once

#include <string>
#include <vector>

namespace snag::cli {

struct RacePassRequest {
  std::string path;               // the program
  std::vector<std::string> argv;  // argv[0] included
  double timeout_seconds = 10;
};

// Hex site ids (as the findings write them), each once, in the order found;
// empty when the pass found no race or did not finish in time.
std::vector<std::string> racy_access_sites(const RacePassRequest &request);

// "id,id,..." for the `racy_sites` key.
std::string join_sites(const std::vector<std::string> &sites);

}  // namespace snag::cli
