// The text of a suppressions file (ThreadSanitizer's syntax, see
// core/suppressions.h) and its template matching, apart from the findings
// they are matched against: parsing takes untrusted text and is fuzzed
// (tests/fuzz).
#pragma once

#include <stddef.h>

namespace snag {

struct Suppression {
  char type[32];
  char pattern[224];
};

constexpr int kMaxSuppressions = 256;

// Parses the `size` bytes of `text` (modified in place: lines are cut at
// their ends, so text[size] must be writable too) into at most `max_rules`
// rules; returns how many. Malformed lines and lines of an
// unknown type are reported on stderr, one line each, and skipped.
int parse_suppressions(char *text, size_t size, Suppression *rules, int max_rules);

// ThreadSanitizer's template matching: `pattern` is a substring of `text`,
// `*` matches anything, `^` anchors at the start and `$` at the end.
bool template_match(const char *pattern, const char *text, size_t text_len);

}  // namespace snag
