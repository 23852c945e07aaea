// Running the interpreter on one target in a child process, so that whatever
// it meets in real code — a crash, a loop the step budget does not bound —
// costs that target's findings and one note, never the whole `snag check`
// run. The child inherits the linked module (fork, copy-on-write), interprets
// it and sends the result back as JSON over a pipe.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "interp/ir/checker.h"

namespace snag::cli {

struct IsolatedCheck {
  std::optional<interp::CheckResult> result;  // when the interpreter finished
  std::string no_entry;  // CheckModule's one-line refusal of a module without entries
  std::string failure;   // the child crashed or ran out of time: one line
};

// Interprets `module` in a child; kills it after `timeout_seconds`.
IsolatedCheck check_module_isolated(llvm::Module &module, const interp::CheckOptions &options,
                                    double timeout_seconds);

// The result as the child sends it, and back; from_json throws
// nlohmann::json::exception on a malformed document.
nlohmann::json check_result_to_json(const interp::CheckResult &result);
interp::CheckResult check_result_from_json(const nlohmann::json &json);

}  // namespace snag::cli
