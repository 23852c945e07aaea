#include "core/suppressions.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/sites.h"

namespace snag {

namespace {

struct Suppression {
  char type[32];
  char pattern[224];
};

constexpr int kMaxSuppressions = 256;
Suppression *g_rules;
int g_rule_count;

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

bool equals(const char *a, size_t n, const char *b) {
  return cstr_len(b) == n && cstr_starts_with(a, b);
}

// Matches `pattern` (no '*') at the start of text; used by template_match.
bool match_here(const char *pattern, size_t plen, const char *text, size_t tlen) {
  if (plen > tlen) return false;
  for (size_t i = 0; i < plen; ++i)
    if (pattern[i] != text[i]) return false;
  return true;
}

bool match_string(const Suppression &s, TableString text) {
  return text.size && template_match(s.pattern, text.data, text.size);
}

bool match_frame(const Suppression &s, snag_site_t site) {
  SiteInfo info;
  if (!find_site(site, &info)) return false;
  return match_string(s, info.function) || match_string(s, info.file);
}

bool match_library(const Suppression &s, snag_site_t site) {
  const char *path = site_module_path(site);
  return path && template_match(s.pattern, path, cstr_len(path));
}

bool rule_applies(const Suppression &s, const Finding &f) {
  size_t kind_len = cstr_len(f.kind);
  bool race = cstr_eq(f.kind, "data-race");
  bool any_frame = cstr_eq(s.type, race ? "race" : f.kind);
  bool top_frame = race ? cstr_eq(s.type, "race_top")
                        : (cstr_starts_with(s.type, f.kind) && equals(s.type + kind_len, 4, "_top"));
  bool library = cstr_eq(s.type, "called_from_lib");
  if (cstr_eq(s.type, "thread")) {
    for (int i = 0; i < f.side_count; ++i)
      if (ThreadState *t = thread_by_tid(f.sides[i].thread))
        if (t->name[0] && template_match(s.pattern, t->name, cstr_len(t->name))) return true;
    return false;
  }
  if (!any_frame && !top_frame && !library) return false;
  for (int i = 0; i < f.side_count; ++i) {
    const StackTrace &stack = f.sides[i].stack;
    uint32_t depth = top_frame ? (stack.depth ? 1 : 0) : stack.depth;
    for (uint32_t k = 0; k < depth; ++k)
      if (library ? match_library(s, stack.frames[k]) : match_frame(s, stack.frames[k])) return true;
  }
  if (any_frame && f.global_name[0] &&
      template_match(s.pattern, f.global_name, cstr_len(f.global_name)))
    return true;
  return false;
}

void parse(char *text, size_t size) {
  g_rules = internal_new_array<Suppression>(kMaxSuppressions);
  char *p = text, *end = text + size;
  int line_number = 0;
  while (p < end) {
    char *eol = p;
    while (eol < end && *eol != '\n') ++eol;
    *eol = 0;
    ++line_number;
    while (*p == ' ' || *p == '\t') ++p;
    char *colon = p;
    while (*colon && *colon != ':') ++colon;
    if (*p && *p != '#') {
      char *last = eol;
      while (last > p && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r')) *--last = 0;
      if (!*colon || colon == p || colon[1] == 0 || g_rule_count == kMaxSuppressions) {
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
          Suppression &s = g_rules[g_rule_count++];
          copy_text(s.type, sizeof s.type, p);
          copy_text(s.pattern, sizeof s.pattern, colon + 1);
        }
      }
    }
    p = eol + 1;
  }
}

}  // namespace

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

void suppressions_init() {
  const char *path = options().get("suppressions");
  if (!path) return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    print_error("cannot read the suppressions file named in SNAG_OPTIONS; no suppressions");
    return;
  }
  size_t capacity = 1 << 16, size = 0;
  char *text = static_cast<char *>(internal_alloc(capacity + 1));
  for (long n; (n = read(fd, text + size, capacity - size)) > 0;) size += static_cast<size_t>(n);
  close(fd);
  text[size] = 0;
  parse(text, size);
}

bool is_suppressed(const Finding &f) {
  for (int i = 0; i < g_rule_count; ++i)
    if (rule_applies(g_rules[i], f)) return true;
  return false;
}

}  // namespace snag
