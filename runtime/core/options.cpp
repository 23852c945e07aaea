#include "core/options.h"

#include "core/platform.h"

namespace snag {

namespace {
Options g_options;

bool is_separator(char c) { return c == ':' || c == ' ' || c == '\t' || c == '\n'; }

// A decimal number of seconds ("2.5"), in nanoseconds.
bool parse_seconds(const char *s, uint64_t *out_ns) {
  uint64_t whole = 0, fraction = 0, scale = 1;
  if (!(*s >= '0' && *s <= '9')) return false;
  for (; *s >= '0' && *s <= '9'; ++s) {
    if (whole > 1000000000ull) return false;  // over 30 years
    whole = whole * 10 + uint64_t(*s - '0');
  }
  if (*s == '.') {
    ++s;
    for (; *s >= '0' && *s <= '9'; ++s)
      if (scale < 1000000000ull) fraction = fraction * 10 + uint64_t(*s - '0'), scale *= 10;
  }
  if (*s) return false;
  *out_ns = whole * 1000000000ull + fraction * (1000000000ull / scale);
  return true;
}

bool parse_number(const char *s, uint64_t *out) { return parse_u64(s, cstr_len(s), out); }

// Whether `value` is one of `choices`, separated by '|'.
bool is_choice(const char *choices, const char *value) {
  const char *p = choices;
  while (*p) {
    const char *v = value;
    while (*p && *p != '|' && *p == *v) ++p, ++v;
    if ((*p == '|' || !*p) && !*v) return true;
    while (*p && *p != '|') ++p;
    if (*p == '|') ++p;
  }
  return false;
}

// One error line, built piece by piece and printed in one write.
class Complaint {
 public:
  Complaint &operator<<(const char *piece) {
    copy_text(text_ + cstr_len(text_), sizeof(text_) - cstr_len(text_), piece);
    return *this;
  }
  Complaint &operator<<(uint64_t n) {
    char digits[24];
    int i = sizeof(digits) - 1;
    digits[i] = 0;
    do digits[--i] = char('0' + n % 10), n /= 10;
    while (n);
    return *this << digits + i;
  }
  ~Complaint() { print_error(text_); }

 private:
  char text_[512] = "SNAG_OPTIONS: ";
};

// A row every caller's key must have: asking for a key the table lacks is a
// bug in the runtime, caught by the first test that reaches it.
const OptionSpec &spec_of(const char *key) {
  const OptionSpec *spec = find_option_spec(key);
  if (!spec) fatal("internal error: an option missing from core/option_table.h was asked for");
  return *spec;
}

void complain_about_value(const OptionSpec &spec, const char *value, const char *problem) {
  Complaint c;
  c << spec.name << "=" << value << " " << problem;
  if (spec.type == OptionType::kCount && spec.max != kNoLimit) c << " (" << spec.min << ".." << spec.max << ")";
  if (spec.type == OptionType::kChoice) c << " (" << spec.choices << ")";
  if (spec.default_text) c << "; using the default, " << spec.default_text;
  else c << "; leaving it unset";
}
}  // namespace

Options &options() { return g_options; }

const OptionSpec *find_option_spec(const char *name) {
  for (const OptionSpec &spec : kOptionSpecs)
    if (cstr_eq(spec.name, name)) return &spec;
  return nullptr;
}

const char *option_value_problem(const OptionSpec &spec, const char *value) {
  uint64_t n;
  switch (spec.type) {
    case OptionType::kText:
    case OptionType::kPath:
      return *value ? nullptr : "is empty";
    case OptionType::kChoice:
      return is_choice(spec.choices, value) ? nullptr : "is not one of the choices";
    case OptionType::kCount:
      if (!parse_number(value, &n)) return "is not a whole number";
      return n < spec.min || n > spec.max ? "is out of range" : nullptr;
    case OptionType::kFlag:
      return is_choice("0|1|true|false|yes|no", value) ? nullptr : "is not 0 or 1";
    case OptionType::kSeconds:
      return parse_seconds(value, &n) ? nullptr : "is not a number of seconds";
  }
  return "is not allowed";
}

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
      while (*p && !is_separator(*p)) ++p;
      char saved = *p;
      *p = 0;
      Complaint() << "ignoring '" << key << "' (expected key=value)";
      *p = saved;
      continue;
    }
    *p++ = 0;
    char *value = p;
    while (*p && !is_separator(*p)) ++p;
    if (*p) *p++ = 0;
    const OptionSpec *spec = find_option_spec(key);
    if (!spec) {
      Complaint() << "unknown key '" << key << "' ignored (snag --help-options lists the keys)";
      continue;
    }
    if (const char *problem = option_value_problem(*spec, value)) {
      complain_about_value(*spec, value, problem);
      continue;
    }
    if (count_ < kMaxPairs) pairs_[count_++] = {key, value};
  }
}

const char *Options::value_of(const char *key) const {
  spec_of(key);
  const char *found = nullptr;
  for (int i = 0; i < count_; ++i)
    if (cstr_eq(pairs_[i].key, key)) found = pairs_[i].value;
  return found;
}

const char *Options::text(const char *key) const {
  const char *value = value_of(key);
  return value ? value : spec_of(key).default_text;
}

uint64_t Options::number(const char *key) const {
  const char *value = text(key);
  uint64_t n = 0;
  return value && parse_number(value, &n) ? n : 0;
}

bool Options::flag(const char *key) const {
  const char *value = text(key);
  return value && is_choice("1|true|yes", value);
}

uint64_t Options::seconds_ns(const char *key) const {
  const char *value = text(key);
  uint64_t ns = 0;
  return value && parse_seconds(value, &ns) ? ns : 0;
}

}  // namespace snag
