#include "symbolizer.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "diagnostics.h"

namespace snag::cli {

namespace {

// "file:line:column" (the file possibly holding ':' itself) into `frame`;
// false for "??:0:0".
bool parse_location(const std::string &where, report::Frame &frame) {
  size_t column_at = where.rfind(':');
  if (column_at == std::string::npos || column_at == 0) return false;
  size_t line_at = where.rfind(':', column_at - 1);
  if (line_at == std::string::npos || where.compare(0, 2, "??") == 0) return false;
  try {
    frame.line = std::stoll(where.substr(line_at + 1, column_at - line_at - 1));
    frame.column = std::stoll(where.substr(column_at + 1));
  } catch (const std::exception &) {
    return false;
  }
  if (frame.line == 0) return false;
  frame.file = where.substr(0, line_at);
  return true;
}

}  // namespace

bool in_snag_runtime(const std::string &file) {
  std::string normal = std::filesystem::path(file).lexically_normal().string();
  const std::string runtime_dir = SNAG_RUNTIME_SOURCE_DIR;
  if (normal.compare(0, runtime_dir.size(), runtime_dir) == 0) return true;
  size_t at = normal.rfind("/runtime/");
  if (at == std::string::npos) return false;
  std::error_code error;
  return std::filesystem::is_regular_file(runtime_dir + normal.substr(at + 9), error);
}

std::vector<std::optional<report::Frame>> symbolize(const std::string &module,
                                                    const std::vector<uint64_t> &addresses,
                                                    Inlined inlined) {
  std::vector<std::optional<report::Frame>> frames(addresses.size());
  if (addresses.empty()) return frames;
  std::string command = "llvm-symbolizer-14 --obj=" + shell_quote(module);
  if (inlined == Inlined::kOuter) command += " --no-inlines";
  for (uint64_t address : addresses) command += fmt::format(" 0x{:x}", address);
  command += " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return frames;
  // Per address a block of "function\nfile:line:column\n" pairs, innermost
  // inlined call first, ended by an empty line.
  size_t index = 0;
  std::vector<std::string> block;
  char line[4096];
  auto end_block = [&] {
    if (index >= frames.size()) return;
    if (block.size() >= 2) {
      report::Frame frame;
      bool located = parse_location(block[1], frame);
      if (block[0] != "??") frame.function = block[0];
      if (located || !frame.function.empty()) frames[index] = frame;
    }
    ++index;
    block.clear();
  };
  while (fgets(line, sizeof line, pipe.get())) {
    std::string text = line;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    if (text.empty()) end_block();
    else block.push_back(text);
  }
  if (!block.empty()) end_block();
  return frames;
}

}  // namespace snag::cli
