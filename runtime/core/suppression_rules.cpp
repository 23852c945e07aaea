#include "core/suppression_rules.h"

#include "core/platform.h"

namespace snag {

namespace {

// ThreadSanitizer's types and the kinds of snag's findings (docs/findings.md);
// any of them may end in _top.
const char *const kKnownTypes[] = {
    "race",  "thread",   "called_from_lib",         "mutex",
    "signal", "deadlock", "thread-safety-violation", "atomicity-violation",
    "order-violation", "assertion-failure", "crash", "hang", "data-race"};

bool known_type(const char *type) {
  size_t n = cstr_len(type);
  if (n > 4 && cstr_eq(type + n - 4, "_top")) n -= 4;
  for (const char *known : kKnownTypes)
    if (cstr_len(known) == n && cstr_starts_with(type, known)) return true;
  return false;
}

// Matches `pattern` (no '*') at the start of text; used by template_match.
bool match_here(const char *pattern, size_t plen, const char *text, size_t tlen) {
  if (plen > tlen) return false;
  for (size_t i = 0; i < plen; ++i)
    if (pattern[i] != text[i]) return false;
  return true;
}

}  // namespace

int parse_suppressions(char *text, size_t size, Suppression *rules, int max_rules) {
  int count = 0;
  char *p = text, *end = text + size;
  while (p < end) {
    char *eol = p;
    while (eol < end && *eol != '\n') ++eol;
    *eol = 0;
    while (*p == ' ' || *p == '\t') ++p;
    char *colon = p;
    while (*colon && *colon != ':') ++colon;
    if (*p && *p != '#') {
      char *last = eol;
      while (last > p && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r')) *--last = 0;
      if (!*colon || colon == p || colon[1] == 0 || count == max_rules) {
        print_error("suppressions: ignoring a malformed line (expected type:pattern)");
      } else {
        *colon = 0;
        if (!known_type(p)) {
          char message[200] = "suppressions: ignoring a line of unknown type '";
          copy_text(message + cstr_len(message), 40, p);
          copy_text(message + cstr_len(message), 120,
                    "' (known: race, race_top, thread, called_from_lib, deadlock, and the kinds "
                    "of findings)");
          print_error(message);
        } else {
          Suppression &s = rules[count++];
          copy_text(s.type, sizeof s.type, p);
          copy_text(s.pattern, sizeof s.pattern, colon + 1);
        }
      }
    }
    p = eol + 1;
  }
  return count;
}

bool template_match(const char *pattern, const char *text, size_t tlen) {
  bool anchor_start = pattern[0] == '^';
  if (anchor_start) ++pattern;
  size_t plen = cstr_len(pattern);
  bool anchor_end = plen > 0 && pattern[plen - 1] == '$';
  if (anchor_end) --plen;
  // Split at '*': the first piece must match at the start when anchored, the
  // pieces must appear in order, and the last at the end when anchored.
  size_t pos = 0;
  bool first = true;
  while (true) {
    size_t star = 0;
    while (star < plen && pattern[star] != '*') ++star;
    bool last_piece = star == plen;
    if (first && anchor_start) {
      if (!match_here(pattern, star, text, tlen)) return false;
      pos = star;
    } else if (last_piece && anchor_end) {
      if (star > tlen - pos || !match_here(pattern, star, text + tlen - star, star)) return false;
      pos = tlen;
    } else {
      size_t found = pos;
      while (found + star <= tlen && !match_here(pattern, star, text + found, tlen - found)) ++found;
      if (found + star > tlen) return false;
      pos = found + star;
    }
    if (last_piece) return !anchor_end || pos == tlen;
    pattern += star + 1;
    plen -= star + 1;
    first = false;
  }
}

}  // namespace snag
