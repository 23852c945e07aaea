#include "core/sites.h"

#include <dlfcn.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag {

namespace {

struct Module {
  const char *table;
  size_t length;
  SiteInfo *sites;  // sorted by id once parsed
  size_t count;
  bool parsed;
  const char *path;  // the file the table is in, found when first asked
};

constexpr int kMaxModules = 4096;
Module g_modules[kMaxModules];
int g_module_count;
SpinLock g_lock;

// Splits [p, end) at TABs; returns the number of fields found (up to max).
int split_fields(const char *p, const char *end, TableString *fields, int max) {
  int n = 0;
  const char *start = p;
  for (; p <= end; ++p) {
    if (p == end || *p == '\t') {
      if (n < max) fields[n++] = {start, static_cast<uint32_t>(p - start)};
      start = p + 1;
    }
  }
  return n;
}

uint64_t to_u64(TableString s) {
  uint64_t v = 0;
  parse_u64(s.data, s.size, &v);
  return v;
}

uint64_t hex_to_u64(TableString s) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < s.size; ++i) {
    char c = s.data[i];
    unsigned d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 0;
    v = (v << 4) | d;
  }
  return v;
}

// Parses one registered table. F and N lines are collected into index arrays
// so S lines can refer to them; a malformed line is skipped.
void parse_module(Module &m) {
  size_t site_lines = 0, file_lines = 0, name_lines = 0;
  for (size_t i = 0; i < m.length; ++i) {
    if (i == 0 || m.table[i - 1] == '\n') {
      char c = m.table[i];
      site_lines += c == 'S';
      file_lines += c == 'F';
      name_lines += c == 'N';
    }
  }
  auto *files = internal_new_array<TableString>(file_lines + 1);
  auto *names = internal_new_array<TableString>(name_lines + 1);
  m.sites = internal_new_array<SiteInfo>(site_lines + 1);
  m.count = 0;
  const char *p = m.table, *end = m.table + m.length;
  while (p < end) {
    const char *eol = p;
    while (eol < end && *eol != '\n') ++eol;
    TableString f[9];
    int n = split_fields(p, eol, f, 9);
    if (n >= 3 && f[0].size == 1 && f[0].data[0] == 'F') {
      uint64_t idx = to_u64(f[1]);
      if (idx < file_lines) files[idx] = f[2];
    } else if (n >= 3 && f[0].size == 1 && f[0].data[0] == 'N') {
      uint64_t idx = to_u64(f[1]);
      if (idx < name_lines) names[idx] = f[2];
    } else if (n >= 7 && f[0].size == 1 && f[0].data[0] == 'S' && m.count < site_lines) {
      SiteInfo &s = m.sites[m.count++];
      s.id = hex_to_u64(f[1]);
      s.kind = static_cast<uint32_t>(to_u64(f[2]));
      s.line = static_cast<uint32_t>(to_u64(f[3]));
      s.column = static_cast<uint32_t>(to_u64(f[4]));
      uint64_t fi = to_u64(f[5]), ni = to_u64(f[6]);
      if (fi < file_lines) s.file = files[fi];
      if (ni < name_lines) s.function = names[ni];
      if (n >= 8) s.parent = hex_to_u64(f[7]);
    } else if (n >= 5 && f[0].size == 1 && f[0].data[0] == 'A' && m.count > 0 &&
               m.sites[m.count - 1].id == hex_to_u64(f[1])) {
      // An A line follows the S line of its API site.
      SiteInfo &s = m.sites[m.count - 1];
      s.api_write = f[2].size == 1 && f[2].data[0] == 'w';
      s.api_object = f[3];
      s.api_operation = f[4];
    }
    p = eol + 1;
  }
  internal_free(files);
  internal_free(names);
  // Insertion sort would be quadratic on big modules: use a heap sort.
  SiteInfo *a = m.sites;
  size_t n = m.count;
  auto sift = [a](size_t root, size_t size) {
    for (;;) {
      size_t child = 2 * root + 1;
      if (child >= size) return;
      if (child + 1 < size && a[child + 1].id > a[child].id) ++child;
      if (a[root].id >= a[child].id) return;
      SiteInfo t = a[root];
      a[root] = a[child];
      a[child] = t;
      root = child;
    }
  };
  for (size_t i = n / 2; i-- > 0;) sift(i, n);
  for (size_t i = n; i-- > 1;) {
    SiteInfo t = a[0];
    a[0] = a[i];
    a[i] = t;
    sift(0, i);
  }
  m.parsed = true;
}

}  // namespace

void register_site_table(const char *table, size_t length) {
  SpinLockGuard guard(g_lock);
  if (g_module_count == kMaxModules) return;
  g_modules[g_module_count++] = {table, length, nullptr, 0, false, nullptr};
}


namespace {
// The site and the module whose table holds it (parsing tables on the way),
// or null. Called with g_lock held.
const SiteInfo *lookup(snag_site_t id, Module **module) {
  for (int i = 0; i < g_module_count; ++i) {
    Module &m = g_modules[i];
    if (!m.parsed) parse_module(m);
    size_t lo = 0, hi = m.count;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (m.sites[mid].id < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo < m.count && m.sites[lo].id == id) {
      *module = &m;
      return &m.sites[lo];
    }
  }
  return nullptr;
}
}  // namespace

bool find_site(snag_site_t id, SiteInfo *out) {
  if (id == 0) return false;
  SpinLockGuard guard(g_lock);
  Module *m;
  const SiteInfo *site = lookup(id, &m);
  if (!site) return false;
  *out = *site;
  return true;
}

const char *site_module_path(snag_site_t id) {
  SpinLockGuard guard(g_lock);
  Module *m;
  if (!lookup(id, &m)) return nullptr;
  if (!m->path) {
    Dl_info info;
    m->path = dladdr(m->table, &info) && info.dli_fname ? info.dli_fname : "";
  }
  return m->path;
}

size_t site_count() {
  SpinLockGuard guard(g_lock);
  size_t total = 0;
  for (int i = 0; i < g_module_count; ++i) {
    if (!g_modules[i].parsed) parse_module(g_modules[i]);
    total += g_modules[i].count;
  }
  return total;
}

}  // namespace snag

SNAG_INTERFACE void __snag_register_sites(const char *table, size_t length) {
  snag::register_site_table(table, length);
}
