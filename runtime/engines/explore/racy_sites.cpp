#include "engines/explore/racy_sites.h"

namespace snag::explore {

namespace {

// A handful of races per program; the tables are filled once, before the
// first thread, and only read afterwards.
constexpr int kMaxKeys = 64;
constexpr uint32_t kSlots = 256;  // power of two, at most a quarter full

// Open addressing over nonzero 64-bit keys, plus the keys in the order given
// (for writing them back).
struct KeySet {
  uint64_t slots[kSlots];
  uint64_t in_order[kMaxKeys];
  int count;

  static uint32_t slot_of(uint64_t key) {
    return static_cast<uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 56) & (kSlots - 1);
  }
  bool contains(uint64_t key) const {
    for (uint32_t slot = slot_of(key);; slot = (slot + 1) & (kSlots - 1)) {
      if (slots[slot] == key) return true;
      if (slots[slot] == 0) return false;
    }
  }
  void insert(uint64_t key) {
    if (key == 0 || count == kMaxKeys || contains(key)) return;
    uint32_t slot = slot_of(key);
    while (slots[slot]) slot = (slot + 1) & (kSlots - 1);
    slots[slot] = key;
    in_order[count++] = key;
  }
};

KeySet g_sites;
KeySet g_granules;  // racy addresses, rounded down to 8 bytes

uint64_t granule(uintptr_t addr) { return addr & ~uintptr_t(7); }

int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

const char *parse_into(KeySet &set, const char *list, bool granules) {
  const char *p = list;
  while (p && *p) {
    uint64_t v = 0;
    const char *start = p;
    for (int d; (d = hex_digit(*p)) >= 0; ++p) v = v * 16 + uint64_t(d);
    if (p == start) break;
    set.insert(granules ? granule(v) : v);
    if (*p != ',') break;
    ++p;
  }
  return p;
}

void append(TextBuffer &b, const KeySet &set, const char *tag) {
  for (int i = 0; i < set.count; ++i) {
    b.add(i ? "," : tag);
    b.add_hex(set.in_order[i]);
  }
}

}  // namespace

const char *racy_sites_parse(const char *list) { return parse_into(g_sites, list, false); }

const char *racy_addresses_parse(const char *list) { return parse_into(g_granules, list, true); }

bool racy_sites_any() { return g_sites.count != 0 || g_granules.count != 0; }

bool is_racy_access(snag_site_t site, uintptr_t addr) {
  return g_sites.contains(site) || (g_granules.count && g_granules.contains(granule(addr)));
}

void racy_sites_append(TextBuffer &b) {
  append(b, g_sites, "+sites/");
  append(b, g_granules, "+addrs/");
}

}  // namespace snag::explore
