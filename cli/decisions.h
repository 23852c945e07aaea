// Decisions: the recorded choices of one schedule (docs/explore.md), a list
// of tokens separated by white space. `T` means thread T ran next; `TpU`
// means T ran next although U, the thread that was running, could have gone
// on (a preemption). Pure functions, shared by replay-file validation and
// `snag replay --shrink`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace snag::cli {

// The tokens of a decisions string, in order.
std::vector<std::string> split_decisions(std::string_view decisions);

// Tokens joined with single spaces.
std::string join_decisions(const std::vector<std::string> &tokens);

// `\d+` or `\d+p\d+`.
bool is_decision(std::string_view token);

// The first token that is not a decision, if any.
std::optional<std::string> first_malformed_decision(std::string_view decisions);

// `\d+p\d+` (assumes is_decision).
bool is_preemption(std::string_view token);

size_t count_preemptions(std::string_view decisions);

// The decisions with the k-th preemption (0-based) `TpU` replaced by `U`:
// the thread that was running goes on instead of being preempted.
// Throws std::out_of_range when there are not k+1 preemptions.
std::string remove_preemption(std::string_view decisions, size_t k);

// How many leading tokens two decisions strings have in common.
size_t common_prefix_length(std::string_view a, std::string_view b);

}  // namespace snag::cli
