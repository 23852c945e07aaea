#include "report_command.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "diagnostics.h"
#include "output.h"
#include "pipeline.h"
#include "report/elf_file.h"

namespace snag::cli {

namespace {

void check_site_program(const std::string &path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw UsageError("no such program: " + path);
  if (!report::is_elf(path)) throw UsageError(path + " is not an ELF file");
}

}  // namespace

int render_findings_file(const Options &options) {
  Format format = parse_format(options.format);
  Destination out = report_destination(options.output, format);
  if (!options.program_for_sites.empty()) check_site_program(options.program_for_sites);

  const std::string &name = options.findings_file;
  std::ifstream file;
  if (name != "-") {
    std::error_code error;
    if (!std::filesystem::exists(name, error)) throw UsageError("no such file: " + name);
    if (std::filesystem::is_directory(name, error)) throw UsageError(name + " is a directory");
    file.open(name, std::ios::binary);
    if (!file) throw UsageError("cannot read " + name + ": " + std::strerror(errno));
  }
  std::istream &in = name == "-" ? std::cin : file;

  report::RunInfo run;
  run.engine = "report";
  std::vector<report::Finding> findings =
      load_findings(in, name == "-" ? "stdin" : name, options.program_for_sites, run.warnings);

  for (const std::string &warning : run.warnings) print_warning(warning);
  write_report(out.stream(), format, findings, run, use_color(options.color, out));
  return findings.empty() ? 0 : options.exitcode;
}

}  // namespace snag::cli
