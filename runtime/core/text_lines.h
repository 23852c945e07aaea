// The runtime's line-oriented state files (tsv's trap file, guard's
// invariants file): a header line, then one record a line, site ids written
// as 16 lowercase hex digits. Read in place, without allocating.
#pragma once

#include <stddef.h>

#include "snag/abi.h"

namespace snag {

struct TextLine {
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
  // What follows the first `skip` characters (the caller checked there are that many).
  TextLine after(size_t skip) const { return {start + skip, length - skip}; }
};

// Hands out a text's lines one by one, counting them from 1.
class TextLines {
 public:
  TextLines(const char *text, size_t length) : next_(text), end_(text + length) {}

  bool next(TextLine *line) {
    if (next_ >= end_) return false;
    const char *eol = next_;
    while (eol < end_ && *eol != '\n') ++eol;
    *line = {next_, static_cast<size_t>(eol - next_)};
    next_ = eol + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

 private:
  const char *next_;
  const char *end_;
  int number_ = 0;
};

// Exactly 16 lowercase hex digits, not all zero (0 is never a site id).
inline bool parse_site_hex(const char *p, snag_site_t *out) {
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

}  // namespace snag
