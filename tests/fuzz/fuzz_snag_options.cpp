// SNAG_OPTIONS comes from the environment: any bytes.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "core/options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  snag::Options &o = snag::options();
  o.parse(text.c_str());
  for (const char *key : {"engine", "findings", "seed", "exitcode", "trap_file", "delay_ms"}) {
    o.get(key);
    o.get_u64(key, 7);
    o.get_bool(key, false);
  }
  return 0;
}
