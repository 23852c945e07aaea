#include "core/options.h"

#include "core/platform.h"

namespace snag {

namespace {
Options g_options;

bool is_separator(char c) { return c == ':' || c == ' ' || c == '\t' || c == '\n'; }
}  // namespace

Options &options() { return g_options; }

void Options::parse(const char *text) {
  count_ = 0;
  if (!text) return;
  size_t len = cstr_len(text);
  if (len >= kBufferSize) {
    print_error("SNAG_OPTIONS is too long; ignoring what does not fit");
    len = kBufferSize - 1;
  }
  copy_bytes(buffer_, text, len);
  buffer_[len] = 0;
  char *p = buffer_;
  while (*p) {
    while (is_separator(*p)) *p++ = 0;
    if (!*p) break;
    char *key = p;
    while (*p && !is_separator(*p) && *p != '=') ++p;
    if (*p != '=') {
      // Key without a value: skip to the next separator.
      while (*p && !is_separator(*p)) ++p;
      char saved = *p;
      *p = 0;
      char message[256] = "SNAG_OPTIONS: ignoring '";
      size_t n = cstr_len(message);
      for (const char *k = key; *k && n < 200; ++k) message[n++] = *k;
      copy_bytes(message + n, "' (expected key=value)", 23);
      print_error(message);
      *p = saved;
      continue;
    }
    *p++ = 0;
    char *value = p;
    while (*p && !is_separator(*p)) ++p;
    if (*p) *p++ = 0;
    if (count_ < kMaxPairs) pairs_[count_++] = {key, value, false};
  }
}

const char *Options::get(const char *key, const char *fallback) const {
  const char *found = fallback;
  for (int i = 0; i < count_; ++i)
    if (cstr_eq(pairs_[i].key, key)) {
      pairs_[i].used = true;
      found = pairs_[i].value;
    }
  return found;
}

uint64_t Options::get_u64(const char *key, uint64_t fallback) const {
  const char *v = get(key);
  uint64_t out;
  if (v && parse_u64(v, cstr_len(v), &out)) return out;
  if (v) {
    char message[256] = "SNAG_OPTIONS: not a number for ";
    size_t n = cstr_len(message);
    for (const char *k = key; *k && n < 250; ++k) message[n++] = *k;
    message[n] = 0;
    print_error(message);
  }
  return fallback;
}

bool Options::get_bool(const char *key, bool fallback) const {
  const char *v = get(key);
  if (!v) return fallback;
  return cstr_eq(v, "1") || cstr_eq(v, "true") || cstr_eq(v, "yes");
}

void Options::warn_unused() const {
  for (int i = 0; i < count_; ++i) {
    if (pairs_[i].used) continue;
    char message[256] = "SNAG_OPTIONS: unknown key '";
    size_t n = cstr_len(message);
    for (const char *k = pairs_[i].key; *k && n < 200; ++k) message[n++] = *k;
    copy_bytes(message + n, "' ignored", 10);
    print_error(message);
  }
}

}  // namespace snag
