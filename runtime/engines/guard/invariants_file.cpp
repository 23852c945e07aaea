#include "engines/guard/invariants_file.h"

#include "core/text_lines.h"

namespace snag::guard {

namespace {

constexpr char kHeader[] = "snag-invariants 1";

// "bset <16 hex> <16 hex>|nil"
bool parse_entry(const TextLine &line, snag_site_t *site, snag_site_t *predecessor) {
  constexpr size_t kPrefix = 5 + 16 + 1;  // "bset " site ' '
  if (line.length < kPrefix || !line.starts_with("bset ") || line.start[21] != ' ') return false;
  if (!parse_site_hex(line.start + 5, site)) return false;
  const TextLine rest = line.after(kPrefix);
  if (rest.equals("nil")) {
    *predecessor = kNilPredecessor;
    return true;
  }
  return rest.length == 16 && parse_site_hex(rest.start, predecessor);
}

// "lock|edge <16 hex> <16 hex>" after a prefix of `skip` characters.
bool parse_site_pair(const TextLine &line, size_t skip, snag_site_t *a, snag_site_t *b) {
  if (line.length != skip + 33 || line.start[skip + 16] != ' ') return false;
  return parse_site_hex(line.start + skip, a) && parse_site_hex(line.start + skip + 17, b);
}

// "count <16 hex> <decimal>"
bool parse_count(const TextLine &line, snag_site_t *site, uint64_t *n) {
  constexpr size_t kPrefix = 6 + 16 + 1;
  if (line.length <= kPrefix || line.length > kPrefix + 19 || line.start[22] != ' ') return false;
  if (!parse_site_hex(line.start + 6, site)) return false;
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
  TextLines lines(text, length);
  for (TextLine line; lines.next(&line);) {
    *line_number = lines.number();
    if (lines.number() == 1) {
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
  if (lines.number() == 0) {
    *line_number = 0;
    *error = "is empty";
    return false;
  }
  return true;
}

}  // namespace snag::guard
