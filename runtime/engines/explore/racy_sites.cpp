#include "engines/explore/racy_sites.h"

namespace snag::explore {

namespace {

// A handful of races per program; the table is filled once, before the
// first thread, and only read afterwards.
constexpr int kMaxSites = 64;
constexpr uint32_t kSlots = 256;  // power of two, at most a quarter full
snag_site_t g_slots[kSlots];
snag_site_t g_in_order[kMaxSites];
int g_count = 0;

uint32_t slot_of(snag_site_t site) {
  return static_cast<uint32_t>((site * 0x9e3779b97f4a7c15ull) >> 56) & (kSlots - 1);
}

void insert(snag_site_t site) {
  if (site == 0 || g_count == kMaxSites || is_racy_site(site)) return;
  uint32_t slot = slot_of(site);
  while (g_slots[slot]) slot = (slot + 1) & (kSlots - 1);
  g_slots[slot] = site;
  g_in_order[g_count++] = site;
}

int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

}  // namespace

const char *racy_sites_parse(const char *list) {
  const char *p = list;
  while (p && *p) {
    uint64_t v = 0;
    const char *start = p;
    for (int d; (d = hex_digit(*p)) >= 0; ++p) v = v * 16 + uint64_t(d);
    if (p == start) break;
    insert(v);
    if (*p != ',') break;
    ++p;
  }
  return p;
}

bool racy_sites_any() { return g_count != 0; }

bool is_racy_site(snag_site_t site) {
  for (uint32_t slot = slot_of(site);; slot = (slot + 1) & (kSlots - 1)) {
    if (g_slots[slot] == site) return true;
    if (g_slots[slot] == 0) return false;
  }
}

void racy_sites_append(TextBuffer &b) {
  for (int i = 0; i < g_count; ++i) {
    b.add(i ? "," : "+sites/");
    b.add_hex(g_in_order[i]);
  }
}

}  // namespace snag::explore
