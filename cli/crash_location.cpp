#include "crash_location.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "diagnostics.h"

namespace snag::cli {

namespace {

// "main\n/src/a.c:12:7\n\n": the innermost (possibly inlined) frame first.
std::optional<report::Frame> symbolize(const std::string &program, uint64_t address) {
  std::string command = fmt::format("llvm-symbolizer-14 --obj={} 0x{:x} 2>/dev/null",
                                    shell_quote(program), address);
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return std::nullopt;
  char line[4096];
  std::string function, where;
  if (!fgets(line, sizeof line, pipe.get())) return std::nullopt;
  function = line;
  if (!fgets(line, sizeof line, pipe.get())) return std::nullopt;
  where = line;
  while (!function.empty() && function.back() == '\n') function.pop_back();
  while (!where.empty() && where.back() == '\n') where.pop_back();
  // file:line:column, the file possibly containing ':' itself.
  size_t column_at = where.rfind(':');
  size_t line_at = column_at == std::string::npos ? column_at : where.rfind(':', column_at - 1);
  if (line_at == std::string::npos || where.compare(0, 2, "??") == 0) return std::nullopt;
  report::Frame frame;
  frame.function = function;
  frame.file = where.substr(0, line_at);
  try {
    frame.line = std::stoll(where.substr(line_at + 1, column_at - line_at - 1));
    frame.column = std::stoll(where.substr(column_at + 1));
  } catch (const std::exception &) {
    return std::nullopt;
  }
  if (frame.line == 0) return std::nullopt;
  return frame;
}

// A fault inside snag's own runtime (an interceptor reading a freed mutex)
// is the program's fault at its call into the runtime: the shadow stack's
// innermost frame, which is kept on top. The runtime may have been compiled
// in another checkout (a moved build, a shared compiler cache), so a file
// counts as the runtime's when the part of its path after its last
// "runtime/" names a file of this snag's runtime sources.
bool in_snag_runtime(const std::string &file) {
  std::string normal = std::filesystem::path(file).lexically_normal().string();
  const std::string runtime_dir = SNAG_RUNTIME_SOURCE_DIR;
  if (normal.compare(0, runtime_dir.size(), runtime_dir) == 0) return true;
  size_t at = normal.rfind("/runtime/");
  if (at == std::string::npos) return false;
  std::error_code error;
  return std::filesystem::is_regular_file(runtime_dir + normal.substr(at + 9), error);
}

}  // namespace

void locate_crashes(std::vector<report::Finding> &findings, const std::string &program,
                    std::vector<std::string> &warnings) {
  for (report::Finding &f : findings) {
    if (!f.details.is_object() || f.sides.empty()) continue;
    auto it = f.details.find("fault_address");
    if (it == f.details.end()) continue;
    // The runtime writes detail values as strings of decimal digits.
    uint64_t address = 0;
    if (it->is_number_unsigned()) {
      address = it->get<uint64_t>();
    } else if (it->is_string()) {
      try {
        address = std::stoull(it->get<std::string>());
      } catch (const std::exception &) {
        continue;
      }
    }
    if (address == 0) continue;
    std::optional<report::Frame> frame = symbolize(program, address);
    if (!frame) {
      warnings.push_back(fmt::format("cannot find the line of the crash at 0x{:x} in {} "
                                     "(is llvm-symbolizer-14 installed?)",
                                     address, program));
      continue;
    }
    std::vector<report::Frame> &stack = f.sides.front().stack;
    if (in_snag_runtime(frame->file) && !stack.empty()) continue;
    if (!stack.empty() && stack.front().file == frame->file && stack.front().line == frame->line)
      continue;
    // The shadow stack's innermost entry is the function's last call: the
    // same function at another line is replaced, a caller is kept below.
    if (!stack.empty() && stack.front().function == frame->function) stack.front() = *frame;
    else stack.insert(stack.begin(), *frame);
  }
}

}  // namespace snag::cli
