// snag-check: the executable behind `snag check` (cli/check_tool.h says why
// it is one of its own). snag execs it with the user's arguments, so it
// parses the same command line as snag and runs only the check command.
#include <exception>

#include "check_command.h"
#include "command_line.h"
#include "diagnostics.h"

int main(int argc, char **argv) {
  using namespace snag::cli;
  try {
    std::optional<CommandLine> command = parse_command_line(argc, argv);
    if (!command) return 0;  // --help or --version
    if (command->engine->mode != EngineMode::kCheck)
      throw UsageError("snag-check runs `snag check` only; run the other commands with snag");
    return run_check(command->options);
  } catch (const std::exception &e) {
    print_error(e.what());
    return kUsageExitStatus;
  }
}
