// An invariants file lives on disk between runs (snag learn writes it, snag
// guard and snag expose read it): any bytes, which the parser must refuse
// cleanly, saying why and where.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "engines/guard/invariants_file.h"

namespace {
struct Counter final : snag::guard::InvariantsReader {
  int entries = 0;
  void entry(snag_site_t site, snag_site_t) override {
    if (site == 0) __builtin_trap();  // 0 is never a site id
    ++entries;
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Counter counter;
  const char *error = nullptr;
  int line = -1;
  bool ok = snag::guard::parse_invariants(text.data(), text.size(), counter, &error, &line);
  if (!ok && !error) __builtin_trap();             // a refusal always says why
  if (!ok && (line < 0 || (line == 0 && size != 0))) __builtin_trap();  // and where
  return 0;
}
