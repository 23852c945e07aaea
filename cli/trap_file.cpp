#include "trap_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "diagnostics.h"

namespace snag::cli {

namespace fs = std::filesystem;

std::string default_trap_file(const std::string &program_path) {
  fs::path program(program_path);
  fs::path directory = program.has_parent_path() ? program.parent_path() : fs::path(".");
  std::string name = program.filename().string() + ".snag-traps";
  if (access(directory.c_str(), W_OK) == 0) return (directory / name).string();
  return name;
}

std::optional<std::string> trap_file_problem(const std::string &text, const std::string &program) {
  static const std::regex kPair("pair [0-9a-f]{16} [0-9a-f]{16} (dangerous|ordered)");
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1) {
      if (line != "snag-tsv-traps 1") return "it does not start with 'snag-tsv-traps 1'";
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("program ", 0) == 0) {
      std::string owner = line.substr(8);
      if (owner != program) return fmt::format("it belongs to program '{}'", owner);
      continue;
    }
    if (!std::regex_match(line, kPair)) return fmt::format("line {} is malformed", number);
  }
  if (number == 0) return "it is empty";
  return std::nullopt;
}

void prepare_trap_file(const std::string &path, const std::string &program_path) {
  std::error_code error;
  fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return;
  if (fs::is_directory(status)) throw UsageError("tsv: trap file " + path + " is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("tsv: cannot read the trap file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  std::string program = fs::path(program_path).filename().string();
  if (std::optional<std::string> problem = trap_file_problem(text.str(), program)) {
    print_warning(fmt::format("tsv: {} is not a trap file of {} ({}); replacing it", path,
                              program, *problem));
    fs::remove(path, error);
  }
}

}  // namespace snag::cli
