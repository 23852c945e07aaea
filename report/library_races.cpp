#include "report/library_races.h"

#include <optional>
#include <string>

namespace snag::report {

namespace {

struct SideCall {
  const ApiCall *call;
  const Frame *frame;  // the program's line that made the call
};

// The API call the side's access happened in, if any: the side's first
// frame outside the toolchain's headers, with library frames above it,
// is a marked call.
std::optional<SideCall> library_call_of(const Side &side, const SiteTable &table) {
  const Frame *user = side_primary_frame(side);
  if (!user || user == &side.stack.front()) return std::nullopt;
  std::vector<const ApiCall *> calls = table.api_calls_at(user->file, user->line, user->column);
  if (calls.empty()) return std::nullopt;
  // Several calls at one position (a = b): the one whose member the next
  // frame in is.
  const Frame &callee = *(user - 1);
  for (const ApiCall *call : calls)
    if (callee.function.find("::" + call->operation + "(") != std::string::npos)
      return SideCall{call, user};
  return SideCall{calls.front(), user};
}

std::string describe(const ApiCall &call) {
  return call.operation + (call.write ? " (write)" : " (read)");
}

std::string thread_name(const Side &side) {
  if (!side.thread) return "a thread";
  return *side.thread == 0 ? "main thread" : "thread T" + std::to_string(*side.thread);
}

}  // namespace

void describe_library_races(std::vector<Finding> &findings, const SiteTable &table) {
  for (Finding &f : findings) {
    if (f.kind != "data-race" || f.sides.size() != 2) continue;
    std::optional<SideCall> a = library_call_of(f.sides[0], table);
    std::optional<SideCall> b = library_call_of(f.sides[1], table);
    if (!a || !b || a->call->object != b->call->object) continue;
    const std::string &object = a->call->object;
    f.message = "Data race inside " + object + ": " + describe(*a->call) + " by " +
                thread_name(f.sides[0]) + " at " + a->frame->location() + " and " +
                describe(*b->call) + " by " + thread_name(f.sides[1]) + " at " +
                b->frame->location();
    if (!f.details.is_object()) f.details = nlohmann::json::object();
    f.details["object"] = object;
    f.details["operations"] = describe(*a->call) + " vs " + describe(*b->call);
    f.details["inside"] = "library code of the two calls; the access itself is in a header";
  }
}

}  // namespace snag::report
