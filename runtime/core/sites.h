// The site registry: every instrumented module registers its site table
// (docs/site-table.md) from a constructor, possibly before the runtime has
// started. Registration only records the table; it is parsed the first time a
// site has to be resolved, which happens on report paths only.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "snag/abi.h"

namespace snag {

// A string inside a registered site table (not NUL-terminated).
struct TableString {
  const char *data = nullptr;
  uint32_t size = 0;
};

struct SiteInfo {
  snag_site_t id = 0;
  uint32_t kind = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  TableString file;
  TableString function;
};

void register_site_table(const char *table, size_t length);

// Looks up a site; false if no registered table has it.
bool find_site(snag_site_t id, SiteInfo *out);

// Number of sites over all registered modules (parses the tables).
size_t site_count();

}  // namespace snag
