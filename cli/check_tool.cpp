#include "check_tool.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "diagnostics.h"

namespace snag::cli {

int run_check_tool(char **argv) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  const std::string tool = (error ? fs::path("snag-check") : self.parent_path() / "snag-check").string();
  // argv[0] stays "snag": snag-check's messages name the command the user typed.
  execv(tool.c_str(), argv);
  print_error("check: cannot run " + tool + ": " + std::strerror(errno) +
              " (snag check's own executable, installed next to snag)");
  return kUsageExitStatus;
}

}  // namespace snag::cli
