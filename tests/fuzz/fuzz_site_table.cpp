// A site table comes from a binary snag is asked to run or report on: any
// bytes, read by the report pipeline and by the runtime.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "core/sites.h"
#include "report/site_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  snag::report::SiteTable table = snag::report::SiteTable::parse(text);
  table.find(0x1111111111111111ull);
  table.api_calls_at("/src/a.cc", 12, 7);
  // The runtime keeps pointers into registered tables for the whole run.
  auto *copy = new std::string(text);
  snag::register_site_table(copy->data(), copy->size());
  snag::SiteInfo info;
  snag::find_site(0x1111111111111111ull, &info);
  return 0;
}
