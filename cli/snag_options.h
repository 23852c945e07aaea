// Building the SNAG_OPTIONS value (docs/options.md) for the program snag runs.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace snag::cli {

using OptionPairs = std::vector<std::pair<std::string, std::string>>;

// The user's own SNAG_OPTIONS (may be empty) followed by ours. The runtime
// lets later keys win, so snag's settings (engine, findings file, ...) take
// precedence while the user's other keys (verbosity, suppressions, ...) still
// apply.
std::string compose_snag_options(const std::string &user_value, const OptionPairs &ours);

}  // namespace snag::cli
