#include "report/resolve.h"

namespace snag::report {

namespace {

void resolve_frame(Frame &frame, const SiteTable &table, ResolveStats &stats) {
  ++stats.frames;
  bool complete = !frame.function.empty() && !frame.file.empty() && frame.line > 0;
  if (!complete && !frame.site.empty()) {
    if (const Site *site = table.find(frame.site)) {
      if (frame.function.empty()) frame.function = site->function;
      if (frame.file.empty()) frame.file = site->file;
      if (frame.line <= 0) {
        frame.line = site->line;
        frame.column = site->column;
      }
      ++stats.filled;
    }
  }
  if (frame.file.empty()) ++stats.unresolved;
}

void resolve_stack(Stack &stack, const SiteTable &table, ResolveStats &stats) {
  for (Frame &frame : stack) resolve_frame(frame, table, stats);
}

}  // namespace

ResolveStats resolve(Finding &finding, const SiteTable &table) {
  ResolveStats stats;
  for (Side &side : finding.sides) {
    resolve_stack(side.stack, table, stats);
    for (Lock &lock : side.locks) resolve_stack(lock.stack, table, stats);
  }
  for (ThreadInfo &thread : finding.threads) resolve_stack(thread.stack, table, stats);
  if (finding.heap) resolve_stack(finding.heap->stack, table, stats);
  return stats;
}

ResolveStats resolve(std::vector<Finding> &findings, const SiteTable &table) {
  ResolveStats total;
  for (Finding &finding : findings) {
    ResolveStats one = resolve(finding, table);
    total.frames += one.frames;
    total.filled += one.filled;
    total.unresolved += one.unresolved;
  }
  return total;
}

}  // namespace snag::report
