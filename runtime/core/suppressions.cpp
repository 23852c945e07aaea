#include "core/suppressions.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/sites.h"
#include "core/suppression_rules.h"

namespace snag {

namespace {

Suppression *g_rules;
int g_rule_count;

bool equals(const char *a, size_t n, const char *b) {
  return cstr_len(b) == n && cstr_starts_with(a, b);
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

}  // namespace

void suppressions_init() {
  const char *path = options().text("suppressions");
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
  g_rules = internal_new_array<Suppression>(kMaxSuppressions);
  g_rule_count = parse_suppressions(text, size, g_rules, kMaxSuppressions);
}

bool is_suppressed(const Finding &f) {
  for (int i = 0; i < g_rule_count; ++i)
    if (rule_applies(g_rules[i], f)) return true;
  return false;
}

}  // namespace snag
