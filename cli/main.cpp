// The `snag` command: picks an engine, runs the program under it, and turns
// the findings into a report (see cli/engines.cpp for the list).
#include <exception>

#include "check_tool.h"
#include "command_line.h"
#include "diagnostics.h"
#include "explore_command.h"
#include "guard_command.h"
#include "merge_command.h"
#include "replay_command.h"
#include "report_command.h"
#include "run_command.h"
#include "tsv_command.h"

int main(int argc, char **argv) {
  using namespace snag::cli;
  try {
    std::optional<CommandLine> command = parse_command_line(argc, argv);
    if (!command) return 0;  // --help or --version
    switch (command->engine->mode) {
      case EngineMode::kReport:
        return render_findings_file(command->options);
      case EngineMode::kExplore:
        return run_explore(command->options);
      case EngineMode::kReplay:
        return run_replay(command->options);
      case EngineMode::kTsv:
        return run_tsv(*command->engine, command->options);
      case EngineMode::kCheck:
        return run_check_tool(argv);  // snag-check: cli/check_tool.h
      case EngineMode::kGuard:
        return run_guard_command(*command->engine, command->options);
      case EngineMode::kMerge:
        return run_merge(command->options);
      case EngineMode::kRun:
      case EngineMode::kEvents:
        break;
    }
    return run_engine(*command->engine, command->options);
  } catch (const std::exception &e) {
    // Usage errors and anything unexpected alike: one line, never a crash.
    print_error(e.what());
    return kUsageExitStatus;
  }
}
