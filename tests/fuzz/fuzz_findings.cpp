// The findings stream is written by the program under test, which may be
// killed mid-line or write garbage to the file: any bytes.
#include <stddef.h>
#include <stdint.h>

#include <sstream>
#include <string>

#include "report/dedup.h"
#include "report/finding.h"
#include "report/rank.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  std::vector<std::string> warnings;
  std::vector<snag::report::Finding> findings = snag::report::read_findings(in, warnings);
  for (const std::string &w : warnings)
    if (w.find('\n') != std::string::npos) __builtin_trap();  // one line each
  for (const snag::report::Finding &f : findings) {
    snag::report::to_json(f).dump();
    f.primary_frame();
  }
  findings = snag::report::dedup(std::move(findings));
  snag::report::rank(findings);
  return 0;
}
