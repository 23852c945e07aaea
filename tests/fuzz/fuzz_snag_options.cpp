// SNAG_OPTIONS comes from the environment: any bytes.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "core/options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  snag::Options &o = snag::options();
  o.parse(text.c_str());
  for (const snag::OptionSpec &spec : snag::kOptionSpecs) {
    o.text(spec.name);
    o.number(spec.name);
    o.flag(spec.name);
    o.seconds_ns(spec.name);
  }
  return 0;
}
