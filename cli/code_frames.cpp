#include "code_frames.h"

#include <map>

#include "symbolizer.h"

namespace snag::cli {

namespace {

template <typename F>
void for_each_stack(report::Finding &finding, F f) {
  for (report::Side &side : finding.sides) {
    f(side.stack);
    for (report::Lock &lock : side.locks) f(lock.stack);
  }
  for (report::ThreadInfo &thread : finding.threads) f(thread.stack);
  if (finding.heap) f(finding.heap->stack);
}

}  // namespace

void symbolize_code_frames(std::vector<report::Finding> &findings) {
  // One symbolizer run per module, over every finding's frames in it.
  std::map<std::string, std::vector<report::Frame *>> frames_of_module;
  for (report::Finding &finding : findings) {
    for_each_stack(finding, [&](report::Stack &stack) {
      for (report::Frame &frame : stack)
        if (!frame.module.empty() && !frame.has_location()) frames_of_module[frame.module].push_back(&frame);
    });
  }
  for (auto &[module, frames] : frames_of_module) {
    std::vector<uint64_t> offsets;
    for (const report::Frame *frame : frames) offsets.push_back(frame->offset);
    std::vector<std::optional<report::Frame>> found = symbolize(module, offsets, Inlined::kOuter);
    for (size_t i = 0; i < frames.size(); ++i) {
      if (!found[i]) continue;
      report::Frame &frame = *frames[i];
      // The symbol table's name is complete (the runtime only sees exported
      // functions), so it wins; a frame with a line keeps its module too.
      // Frames are return addresses' calls, so an inlined callee's line
      // is shown as its caller's: the call the stack came through.
      if (!found[i]->function.empty()) frame.function = found[i]->function;
      // The runtime's entry point (the interceptor the program called) is
      // named, not located: its source is snag's, not the program's.
      if (found[i]->has_location() && !in_snag_runtime(found[i]->file)) {
        frame.file = found[i]->file;
        frame.line = found[i]->line;
        frame.column = found[i]->column;
      }
    }
  }
}

}  // namespace snag::cli
