#include "program_check.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "diagnostics.h"
#include "report/elf_file.h"

namespace snag::cli {

namespace fs = std::filesystem;

namespace {

bool is_executable_file(const std::string &path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

// The same checks for a path given with a slash and for a PATH hit, so that
// the message names the problem rather than just "cannot run".
void check_runnable(const std::string &path) {
  std::error_code error;
  fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) throw UsageError("no such program: " + path);
  if (fs::is_directory(status)) throw UsageError(path + " is a directory, not a program");
  if (!fs::is_regular_file(status)) throw UsageError(path + " is not a regular file");
  if (access(path.c_str(), X_OK) != 0) throw UsageError(path + " is not executable");
}

}  // namespace

std::string find_program(const std::string &name) {
  if (name.empty()) throw UsageError("no such program: ''");
  if (name.find('/') != std::string::npos) {
    check_runnable(name);
    return name;
  }
  const char *path_variable = getenv("PATH");
  std::istringstream dirs(path_variable ? path_variable : "/usr/local/bin:/usr/bin:/bin");
  std::string first_match;  // a file with that name that is not executable
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    std::error_code error;
    if (first_match.empty() && fs::exists(candidate, error)) first_match = candidate;
  }
  if (!first_match.empty()) check_runnable(first_match);  // throws with the reason
  throw UsageError("no such program: " + name);
}

void check_snag_program(const std::string &path) {
  if (!report::is_elf(path)) {
    throw UsageError(path + " is not an ELF file (snag runs programs built with snag-cc/snag-c++, not scripts)");
  }
  bool has_runtime = false;
  try {
    has_runtime = report::has_section(path, kRuntimeSection);
  } catch (const report::ElfError &e) {
    throw UsageError(e.what());
  }
  if (!has_runtime) {
    throw UsageError(path +
                     " was not built with snag-c++ (no snag runtime in the binary); "
                     "rebuild it with snag-cc/snag-c++");
  }
}

std::string resolve_program(const std::string &name) {
  std::string path = find_program(name);
  check_snag_program(path);
  return path;
}

}  // namespace snag::cli
