#include "engines/guard/invariants_file.h"

namespace snag::guard {

namespace {

constexpr char kHeader[] = "snag-invariants 1";

struct Line {
  const char *start;
  size_t length;

  bool starts_with(const char *prefix) const {
    size_t i = 0;
    for (; prefix[i] != '\0'; ++i)
      if (i >= length || start[i] != prefix[i]) return false;
    return true;
  }
  bool equals(const char *text) const {
    size_t n = 0;
    while (text[n] != '\0') ++n;
    return n == length && starts_with(text);
  }
};

// Exactly 16 lowercase hex digits, not all zero (0 is never a site id).
bool parse_site(const char *p, snag_site_t *out) {
  uint64_t v = 0;
  for (int i = 0; i < 16; ++i) {
    char c = p[i];
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return false;
    v = v << 4 | static_cast<uint64_t>(digit);
  }
  *out = v;
  return v != 0;
}

// "bset <16 hex> <16 hex>|nil"
bool parse_entry(const Line &line, snag_site_t *site, snag_site_t *predecessor) {
  constexpr size_t kPrefix = 5 + 16 + 1;  // "bset " site ' '
  if (line.length < kPrefix || !line.starts_with("bset ") || line.start[21] != ' ') return false;
  if (!parse_site(line.start + 5, site)) return false;
  Line rest = {line.start + kPrefix, line.length - kPrefix};
  if (rest.equals("nil")) {
    *predecessor = kNilPredecessor;
    return true;
  }
  return rest.length == 16 && parse_site(rest.start, predecessor);
}

// "lock|edge <16 hex> <16 hex>" after a prefix of `skip` characters.
bool parse_site_pair(const Line &line, size_t skip, snag_site_t *a, snag_site_t *b) {
  if (line.length != skip + 33 || line.start[skip + 16] != ' ') return false;
  return parse_site(line.start + skip, a) && parse_site(line.start + skip + 17, b);
}

// "count <16 hex> <decimal>"
bool parse_count(const Line &line, snag_site_t *site, uint64_t *n) {
  constexpr size_t kPrefix = 6 + 16 + 1;
  if (line.length <= kPrefix || line.length > kPrefix + 19 || line.start[22] != ' ') return false;
  if (!parse_site(line.start + 6, site)) return false;
  uint64_t v = 0;
  for (size_t i = kPrefix; i < line.length; ++i) {
    char c = line.start[i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *n = v;
  return true;
}

}  // namespace

bool parse_invariants(const char *text, size_t length, InvariantsReader &reader,
                      const char **error, int *line_number) {
  const char *p = text, *end = text + length;
  int number = 0;
  while (p < end) {
    const char *eol = p;
    while (eol < end && *eol != '\n') ++eol;
    Line line = {p, static_cast<size_t>(eol - p)};
    p = eol + 1;
    ++number;
    *line_number = number;
    if (number == 1) {
      if (!line.equals(kHeader)) {
        *error = "is not a snag invariants file (first line is not 'snag-invariants 1')";
        return false;
      }
      continue;
    }
    if (line.length == 0 || line.start[0] == '#' || line.starts_with("program ")) continue;
    snag_site_t site, other;
    uint64_t n;
    if (line.starts_with("lock ")) {
      if (!parse_site_pair(line, 5, &site, &other)) {
        *error = "has a malformed line (expected 'lock <site> <site>')";
        return false;
      }
      reader.lock(site, other);
      continue;
    }
    if (line.starts_with("edge ")) {
      if (!parse_site_pair(line, 5, &site, &other)) {
        *error = "has a malformed line (expected 'edge <site> <site>')";
        return false;
      }
      reader.edge(site, other);
      continue;
    }
    if (line.starts_with("count ")) {
      if (!parse_count(line, &site, &n)) {
        *error = "has a malformed line (expected 'count <site> <number>')";
        return false;
      }
      reader.count(site, n);
      continue;
    }
    snag_site_t predecessor;
    if (!parse_entry(line, &site, &predecessor)) {
      *error = "has a malformed line (expected 'bset <site> <site>|nil')";
      return false;
    }
    reader.entry(site, predecessor);
  }
  if (number == 0) {
    *line_number = 0;
    *error = "is empty";
    return false;
  }
  return true;
}

}  // namespace snag::guard
