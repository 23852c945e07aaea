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
  snag_site_t parent = 0;  // the inlined call this site's code was inlined into
  // API sites (the A line): whether the call writes, the object's type and
  // the operation; empty for other sites.
  bool api_write = false;
  TableString api_object;
  TableString api_operation;
};

void register_site_table(const char *table, size_t length);

// Looks up a site; false if no registered table has it.
bool find_site(snag_site_t id, SiteInfo *out);

// The file (executable or shared library) whose table holds the site, or
// null. Report path only.
const char *site_module_path(snag_site_t id);

// Calls f(site) for each frame of `frames` expanded through inlining: a
// frame is followed by the inlined calls it sits in, innermost first
// (docs/site-table.md). At most `limit` frames.
template <typename F>
void for_each_expanded_frame(const snag_site_t *frames, uint32_t count, uint32_t limit, F f) {
  uint32_t emitted = 0;
  for (uint32_t i = 0; i < count && emitted < limit; ++i) {
    snag_site_t site = frames[i];
    for (int depth = 0; site && depth < 32 && emitted < limit; ++depth) {
      f(site);
      ++emitted;
      SiteInfo info;
      site = find_site(site, &info) ? info.parent : 0;
    }
  }
}

// Number of sites over all registered modules (parses the tables).
size_t site_count();

}  // namespace snag
