#include "report/sarif_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "report/dedup.h"
#include "report/version.h"

namespace snag::report {

using nlohmann::json;

namespace {

// Longer explanations for the kinds the engines report today; other kinds
// get their title only.
struct KnownKind {
  const char *kind;
  const char *description;
};
constexpr KnownKind kKnownKinds[] = {
    {"data-race",
     "Two threads access the same memory location without synchronization, and at least one "
     "access is a write."},
    {"potential-data-race",
     "Two threads access the same memory location holding no common lock, and at least one "
     "access is a write; in this run a lock happened to order them, in another the accesses can "
     "meet."},
    {"thread-safety-violation",
     "Two threads call members of the same thread-unsafe object (such as a std:: container) at "
     "the same time, and at least one call modifies it."},
    {"deadlock", "Threads wait for each other in a cycle, so none of them can proceed."},
    {"assertion-failure", "An assertion failed in an interleaving of the program's threads."},
    {"crash", "The program crashed in an interleaving of its threads."},
    {"hang", "The program did not finish within the step bound."},
    {"output-mismatch",
     "The program's output in an interleaving of its threads differs from its output in the "
     "first schedule explored."},
    {"atomicity-violation",
     "A thread's accesses that were always atomic in correct runs were interleaved by another "
     "thread's access."},
    {"order-violation",
     "Accesses from two threads happened in an order never seen in correct runs."},
};

const char *kind_description(const std::string &kind) {
  for (const KnownKind &k : kKnownKinds)
    if (kind == k.kind) return k.description;
  return nullptr;
}

// "data-race" -> "DataRace": SARIF rule names are conventionally Pascal case.
std::string rule_name(const std::string &kind) {
  std::string out;
  bool upper = true;
  for (char c : kind) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string level_of(const std::string &severity) {
  if (severity == "error" || severity == "warning" || severity == "note") return severity;
  return "warning";
}

// FNV-1a 64, the hash snag uses for site ids too; stable across runs and
// machines, which is what a fingerprint needs.
std::string fingerprint(const std::string &text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

json message(const std::string &text) { return {{"text", text}}; }

json location(const Frame &frame) {
  json out = json::object();
  if (frame.has_location()) {
    json physical = {{"artifactLocation", {{"uri", path_to_uri(frame.file)}}}};
    if (frame.line > 0) {
      json region = {{"startLine", frame.line}};
      if (frame.column > 0) region["startColumn"] = frame.column;
      physical["region"] = std::move(region);
    }
    out["physicalLocation"] = std::move(physical);
  }
  // Without a file, the function (or the bare site id) is all we can point at.
  if (!frame.function.empty()) {
    out["logicalLocations"] = json::array({{{"name", frame.function}, {"kind", "function"}}});
  } else if (!frame.has_location()) {
    out["logicalLocations"] = json::array({{{"name", frame.display()}}});
  }
  if (!frame.site.empty()) out["properties"] = {{"site", frame.site}};
  return out;
}

json sarif_stack(const std::string &description, const Stack &stack, std::optional<int64_t> thread) {
  json frames = json::array();
  for (const Frame &frame : stack) {
    json f = {{"location", location(frame)}};
    if (thread) f["threadId"] = *thread;
    frames.push_back(std::move(f));
  }
  return {{"message", message(description)}, {"frames", std::move(frames)}};
}

// A threadFlow lists locations in execution order, outermost call first.
json thread_flow(const Side &side) {
  json locations = json::array();
  for (size_t depth = 0; depth < side.stack.size(); ++depth) {
    const Frame &frame = side.stack[side.stack.size() - 1 - depth];
    locations.push_back({{"location", location(frame)}, {"nestingLevel", depth}});
  }
  json flow = {{"message", message(side.description)}, {"locations", std::move(locations)}};
  if (side.thread) flow["id"] = "T" + std::to_string(*side.thread);
  return flow;
}

json result(const Finding &finding, size_t rule_index) {
  json out = {{"ruleId", finding.kind},
              {"ruleIndex", rule_index},
              {"level", level_of(finding.severity)},
              {"message", message(finding.message.empty() ? finding.display_title() : finding.message)}};

  if (const Frame *primary = finding.primary_frame()) {
    json primary_location = location(*primary);
    primary_location["id"] = 0;
    out["locations"] = json::array({std::move(primary_location)});
  }

  json related = json::array();
  for (size_t i = 1; i < finding.sides.size(); ++i) {
    const Side &side = finding.sides[i];
    if (side.stack.empty()) continue;
    json l = location(side.stack.front());
    l["id"] = i;
    l["message"] = message(side.description);
    related.push_back(std::move(l));
  }
  if (!related.empty()) out["relatedLocations"] = std::move(related);

  // Every side's whole stack, plus the stacks that explain it.
  json stacks = json::array();
  json flows = json::array();
  for (const Side &side : finding.sides) {
    stacks.push_back(sarif_stack(side.description, side.stack, side.thread));
    if (!side.stack.empty()) flows.push_back(thread_flow(side));  // SARIF wants >= 1 location
    for (const Lock &lock : side.locks) {
      if (lock.stack.empty()) continue;
      std::string name = lock.name.empty() ? "mutex " + lock.address : "mutex " + lock.name;
      stacks.push_back(sarif_stack(name + " acquired here", lock.stack, side.thread));
    }
  }
  if (finding.heap && !finding.heap->stack.empty()) {
    stacks.push_back(sarif_stack("heap block of size " + std::to_string(finding.heap->size) +
                                     " at " + finding.heap->address + " allocated here",
                                 finding.heap->stack, finding.heap->thread));
  }
  for (const ThreadInfo &thread : finding.threads) {
    if (thread.stack.empty()) continue;
    stacks.push_back(
        sarif_stack("thread " + thread.display_name() + " created here", thread.stack, thread.parent));
  }
  out["stacks"] = std::move(stacks);
  if (!flows.empty()) {
    out["codeFlows"] = json::array({{{"threadFlows", std::move(flows)}}});
  }

  out["partialFingerprints"] = {{"snagFinding/v1", fingerprint(dedup_key(finding))}};
  out["occurrenceCount"] = std::max<uint64_t>(1, finding.count);
  // SARIF's rank is 0..100; snag's is 0..1.
  if (std::isfinite(finding.rank)) out["rank"] = std::clamp(finding.rank, 0.0, 1.0) * 100.0;

  json properties = {{"engine", finding.engine}, {"title", finding.display_title()}, {"rank", finding.rank}};
  if (finding.seed) properties["seed"] = *finding.seed;
  if (finding.pid) properties["pid"] = *finding.pid;
  if (finding.details.is_object()) properties["details"] = finding.details;
  if (finding.global) {
    properties["global"] = {{"name", finding.global->name},
                            {"address", finding.global->address},
                            {"size", finding.global->size}};
  }
  out["properties"] = std::move(properties);
  return out;
}

json invocation(const RunInfo &run) {
  json notifications = json::array();
  for (const std::string &note : run.notes)
    notifications.push_back({{"level", "note"}, {"message", message(note)}});
  for (const std::string &warning : run.warnings)
    notifications.push_back({{"level", "warning"}, {"message", message(warning)}});

  json properties = json::object();
  if (!run.engine.empty()) properties["engine"] = run.engine;
  if (!run.program.empty()) {
    properties["program"] = run.program;
    properties["arguments"] = run.arguments;
  }
  if (run.exit_status) properties["programExitStatus"] = *run.exit_status;
  if (run.signal) properties["programSignal"] = *run.signal;
  properties["timedOut"] = run.timed_out;
  // A property bag takes any JSON value, so the engine's facts stay valid SARIF.
  if (run.details.is_object()) properties.update(run.details);

  // snag itself ran to completion whatever the program did.
  json out = {{"executionSuccessful", true}, {"properties", std::move(properties)}};
  if (!notifications.empty()) out["toolExecutionNotifications"] = std::move(notifications);
  return out;
}

}  // namespace

std::string path_to_uri(const std::string &path) {
  std::string out = path.starts_with('/') ? "file://" : "";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

json to_sarif(const std::vector<Finding> &findings, const RunInfo &run) {
  json rules = json::array();
  std::vector<std::string> rule_ids;
  json results = json::array();
  for (const Finding &finding : findings) {
    auto it = std::find(rule_ids.begin(), rule_ids.end(), finding.kind);
    size_t index = static_cast<size_t>(it - rule_ids.begin());
    if (it == rule_ids.end()) {
      json rule = {{"id", finding.kind},
                   {"name", rule_name(finding.kind)},
                   {"shortDescription", message(finding.display_title())},
                   {"defaultConfiguration", {{"level", level_of(finding.severity)}}},
                   {"properties", {{"tags", json::array({"concurrency"})}}}};
      if (const char *description = kind_description(finding.kind))
        rule["fullDescription"] = message(description);
      rules.push_back(std::move(rule));
      rule_ids.push_back(finding.kind);
    }
    results.push_back(result(finding, index));
  }

  json driver = {{"name", "snag"},
                 {"version", tool_version()},
                 {"semanticVersion", tool_version()},
                 {"rules", std::move(rules)}};
  if (!information_uri().empty()) driver["informationUri"] = information_uri();

  json sarif_run = {{"tool", {{"driver", std::move(driver)}}},
                    {"invocations", json::array({invocation(run)})},
                    {"results", std::move(results)}};
  return {{"$schema", kSarifSchemaUri}, {"version", "2.1.0"}, {"runs", json::array({std::move(sarif_run)})}};
}

void write_sarif(std::ostream &out, const std::vector<Finding> &findings, const RunInfo &run) {
  out << to_sarif(findings, run).dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace snag::report
