#include "decisions.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace snag::cli {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::vector<std::string> split_decisions(std::string_view decisions) {
  std::istringstream in{std::string(decisions)};
  std::vector<std::string> tokens;
  for (std::string token; in >> token;) tokens.push_back(token);
  return tokens;
}

std::string join_decisions(const std::vector<std::string> &tokens) {
  std::string out;
  for (const std::string &token : tokens) {
    if (!out.empty()) out += ' ';
    out += token;
  }
  return out;
}

bool is_decision(std::string_view token) {
  size_t p = token.find('p');
  if (p == std::string_view::npos) return all_digits(token);
  return all_digits(token.substr(0, p)) && all_digits(token.substr(p + 1));
}

std::optional<std::string> first_malformed_decision(std::string_view decisions) {
  for (const std::string &token : split_decisions(decisions))
    if (!is_decision(token)) return token;
  return std::nullopt;
}

bool is_preemption(std::string_view token) { return token.find('p') != std::string_view::npos; }

size_t count_preemptions(std::string_view decisions) {
  std::vector<std::string> tokens = split_decisions(decisions);
  return static_cast<size_t>(std::count_if(tokens.begin(), tokens.end(),
                                           [](const std::string &t) { return is_preemption(t); }));
}

std::string remove_preemption(std::string_view decisions, size_t k) {
  std::vector<std::string> tokens = split_decisions(decisions);
  size_t seen = 0;
  for (std::string &token : tokens) {
    if (!is_preemption(token)) continue;
    if (seen++ == k) {
      token = token.substr(token.find('p') + 1);  // TpU -> U
      return join_decisions(tokens);
    }
  }
  throw std::out_of_range("no preemption #" + std::to_string(k) + " in the decisions");
}

size_t common_prefix_length(std::string_view a, std::string_view b) {
  std::vector<std::string> x = split_decisions(a), y = split_decisions(b);
  size_t n = 0;
  while (n < x.size() && n < y.size() && x[n] == y[n]) ++n;
  return n;
}

}  // namespace snag::cli
