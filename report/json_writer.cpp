#include "report/json_writer.h"

#include "report/summary.h"
#include "report/version.h"

namespace snag::report {

using nlohmann::json;

namespace {

json run_json(const RunInfo &run) {
  json out = json::object();
  if (!run.engine.empty()) out["engine"] = run.engine;
  if (!run.program.empty()) {
    out["program"] = run.program;
    out["arguments"] = run.arguments;
  }
  if (run.exit_status) out["exit_status"] = *run.exit_status;
  if (run.signal) out["signal"] = *run.signal;
  out["timed_out"] = run.timed_out;
  out["notes"] = run.notes;
  out["warnings"] = run.warnings;
  if (run.details.is_object()) out.update(run.details);
  return out;
}

json summary_json(const std::vector<Finding> &findings) {
  json by_kind = json::object();
  uint64_t reports = 0;
  for (const KindCount &k : count_by_kind(findings)) {
    by_kind[k.kind] = k.findings;
    reports += k.reports;
  }
  return {{"findings", findings.size()},
          {"reports", reports},
          {"by_kind", std::move(by_kind)},
          {"text", summary_line(findings)}};
}

}  // namespace

json to_report_json(const std::vector<Finding> &findings, const RunInfo &run) {
  json list = json::array();
  for (const Finding &f : findings) list.push_back(to_json(f));
  return {{"version", kFindingsFormatVersion},
          {"tool", {{"name", "snag"}, {"version", tool_version()}}},
          {"run", run_json(run)},
          {"findings", std::move(list)},
          {"summary", summary_json(findings)}};
}

void write_json(std::ostream &out, const std::vector<Finding> &findings, const RunInfo &run) {
  // Site tables come from binaries and may hold file names that are not
  // UTF-8; replace such bytes rather than fail the whole report.
  out << to_report_json(findings, run).dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace snag::report
