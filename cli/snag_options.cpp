#include "snag_options.h"

namespace snag::cli {

std::string compose_snag_options(const std::string &user_value, const OptionPairs &ours) {
  std::string out = user_value;
  for (const auto &[key, value] : ours) {
    bool separated = out.empty() || out.back() == ':' || out.back() == ' ';
    if (!separated) out += ':';
    out += key + '=' + value;
  }
  return out;
}

}  // namespace snag::cli
