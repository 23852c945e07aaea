// What the `snag` command knows about the run that produced the findings.
// The machine-readable writers (JSON, SARIF) include it so that a CI job can
// tell "no findings" from "the program crashed before it could find anything".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace snag::report {

struct RunInfo {
  std::string engine;                  // the `snag` engine ("race", "events", "report", ...)
  std::string program;                 // as the user named it; empty when unknown
  std::vector<std::string> arguments;  // the program's arguments
  std::optional<int> exit_status;      // when the program exited normally
  std::optional<int> signal;           // when a signal ended it
  bool timed_out = false;              // snag killed it after --timeout
  std::vector<std::string> notes;      // one-line notes about the run, e.g. the signal
  std::vector<std::string> warnings;   // problems met while reading the findings
  // Engine-specific facts about the run, as an object whose members the JSON
  // report adds to its "run" object and SARIF to the invocation's properties
  // (`snag explore` puts its statistics under "explore"). Null: none.
  nlohmann::json details;
};

}  // namespace snag::report
