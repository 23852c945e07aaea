// `snag check`'s findings in the report model every engine shares
// (report/finding.h), so they go through the same dedup, ranking and
// JSON/SARIF writers as `snag race`'s: a race has two sides ("current" and
// "previous"), a deadlock one side per acquisition of the cycle, each with
// the innermost user frame as its stack, and the threads involved with where
// they were created.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "interp/ir/checker.h"
#include "report/finding.h"

namespace snag::cli {

// A thread as the interpreter describes it ("main thread", "thread T1
// started at worker.cc:12:5"), split into its parts when it has that shape.
struct ThreadDescription {
  std::string name;                                 // "main thread", "thread T1"
  std::optional<int64_t> id;                        // 0 for the main thread, N for "thread TN"
  std::optional<interp::SourceSite> created_at;     // where it was started
};

ThreadDescription parse_thread_description(const std::string &text);

report::Finding to_report_finding(const interp::CheckFinding &finding, uint64_t seed);

}  // namespace snag::cli
