#include "pipeline.h"

#include "code_frames.h"
#include "crash_location.h"
#include "report/dedup.h"
#include "report/elf_file.h"
#include "report/library_races.h"
#include "report/rank.h"
#include "report/resolve.h"
#include "report/site_table.h"

namespace snag::cli {

std::vector<report::Finding> load_findings(std::istream &in, const std::string &source,
                                           const std::string &program,
                                           std::vector<std::string> &warnings) {
  std::vector<std::string> line_warnings;
  std::vector<report::Finding> findings = report::read_findings(in, line_warnings);
  for (const std::string &w : line_warnings) warnings.push_back(source + ": " + w);

  if (!program.empty() && !findings.empty()) {
    report::SiteTable table;
    try {
      table = report::SiteTable::from_binary(program);
    } catch (const report::ElfError &e) {
      warnings.push_back(std::string("cannot read the site table: ") + e.what());
    }
    if (table.malformed_lines() > 0) {
      warnings.push_back(program + ": ignored " + std::to_string(table.malformed_lines()) +
                         " malformed line(s) in the site table");
    }
    report::ResolveStats stats = report::resolve(findings, table);
    symbolize_code_frames(findings);
    locate_crashes(findings, program, warnings);
    report::describe_library_races(findings, table);
    if (stats.unresolved > 0 && table.empty()) {
      warnings.push_back(program + " has no site table; " + std::to_string(stats.unresolved) +
                         " frame(s) stay unresolved");
    }
  }

  findings = report::dedup(std::move(findings));
  report::rank(findings);
  return findings;
}

}  // namespace snag::cli
