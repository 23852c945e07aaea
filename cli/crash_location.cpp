#include "crash_location.h"

#include <fmt/format.h>

#include "symbolizer.h"

namespace snag::cli {

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
    std::optional<report::Frame> frame = symbolize(program, {address}, Inlined::kInnermost).front();
    if (!frame || !frame->has_location()) {
      warnings.push_back(fmt::format("cannot find the line of the crash at 0x{:x} in {} "
                                     "(is llvm-symbolizer-14 installed?)",
                                     address, program));
      continue;
    }
    std::vector<report::Frame> &stack = f.sides.front().stack;
    // A fault inside snag's own runtime (an interceptor reading a freed
    // mutex) is the program's fault at its call into the runtime: the
    // shadow stack's innermost frame, which is kept on top.
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
