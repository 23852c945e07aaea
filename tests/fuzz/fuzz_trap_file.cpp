// A trap file lives on disk between runs: any bytes, read by the runtime
// (which must refuse what is malformed) and checked by the CLI.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "cli/trap_file.h"
#include "engines/tsv/trap_file.h"
#include "engines/tsv/trap_set.h"

namespace {
struct Counter final : snag::tsv::TrapFileReader {
  int pairs = 0;
  void pair(snag_site_t, snag_site_t, bool) override { ++pairs; }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Counter counter;
  const char *error = nullptr;
  bool ok = snag::tsv::parse_trap_file(text.data(), text.size(), counter, &error);
  if (!ok && !error) __builtin_trap();  // a refusal always says why
  // What the CLI accepts, the runtime accepts too.
  if (!snag::cli::trap_file_problem(text, "program") && !ok) __builtin_trap();
  return 0;
}
