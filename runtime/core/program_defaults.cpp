#include "core/program_defaults.h"

#include "core/platform.h"

// Defined by the program, if at all.
extern "C" __attribute__((weak)) const char *__snag_default_options();
extern "C" __attribute__((weak)) const char *__tsan_default_options();

namespace snag {

namespace {

// ThreadSanitizer keys with the same meaning under snag.
constexpr const char *kSharedTsanKeys[] = {"halt_on_error", "exitcode", "suppressions",
                                           "report_bugs"};

bool is_separator(char c) { return c == ':' || c == ' ' || c == '\t' || c == '\n' || c == ','; }

bool is_shared_tsan_key(const char *key, size_t len) {
  for (const char *shared : kSharedTsanKeys)
    if (cstr_len(shared) == len && cstr_starts_with(key, shared)) return true;
  return false;
}

class Appender {
 public:
  Appender(char *out, size_t capacity) : out_(out), capacity_(capacity) { out_[0] = 0; }

  void add(const char *text, size_t len) {
    if (len_ + len + 2 > capacity_) return;  // too long: Options::parse says so for the rest
    if (len_) out_[len_++] = ' ';
    copy_bytes(out_ + len_, text, len);
    len_ += len;
    out_[len_] = 0;
  }
  void add(const char *text) { add(text, cstr_len(text)); }

 private:
  char *out_;
  size_t capacity_;
  size_t len_ = 0;
};

// Only key=value pairs whose key snag shares; ThreadSanitizer's separators
// (':' ',' and spaces) split them.
void add_shared_tsan_pairs(Appender &a, const char *text) {
  const char *p = text;
  while (*p) {
    while (*p && is_separator(*p)) ++p;
    const char *pair = p;
    while (*p && !is_separator(*p)) ++p;
    const char *eq = pair;
    while (eq < p && *eq != '=') ++eq;
    if (eq < p && is_shared_tsan_key(pair, static_cast<size_t>(eq - pair)))
      a.add(pair, static_cast<size_t>(p - pair));
  }
}

}  // namespace

const char *options_with_program_defaults(char *out, size_t capacity,
                                          const char *environment_text) {
  Appender a(out, capacity);
  if (__snag_default_options)
    if (const char *own = __snag_default_options()) a.add(own);
  if (__tsan_default_options)
    if (const char *tsan = __tsan_default_options()) add_shared_tsan_pairs(a, tsan);
  if (environment_text) a.add(environment_text);
  return out;
}

}  // namespace snag
