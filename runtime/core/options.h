// SNAG_OPTIONS, parsed once at start-up and checked against the option table
// (core/option_table.h, which docs/options.md and `snag --help-options` show).
#pragma once

#include <stdint.h>

#include "core/option_table.h"

namespace snag {

class Options {
 public:
  // Parses `text` ("key=value" pairs separated by ':' or spaces). An unknown
  // key, a pair without '=' and a value its key does not allow (a bad number,
  // one out of range, an unknown choice) are each reported in one line on
  // stderr and left out, so the default applies.
  void parse(const char *text);

  // The value of `key`, or its default from the table (nullptr when it has
  // none). When a key is given twice the last value wins: the snag command
  // appends its own settings to the user's.
  const char *text(const char *key) const;
  uint64_t number(const char *key) const;
  bool flag(const char *key) const;
  uint64_t seconds_ns(const char *key) const;
  // Whether the key was set (its default does not count).
  bool has(const char *key) const { return value_of(key) != nullptr; }

 private:
  const char *value_of(const char *key) const;

  static constexpr int kMaxPairs = 64;
  static constexpr int kBufferSize = 4096;
  char buffer_[kBufferSize];
  struct Pair {
    const char *key;
    const char *value;
  } pairs_[kMaxPairs];
  // No initializers: the options are parsed in .preinit_array, before
  // dynamic initialization, which would otherwise reset them. Static storage
  // is zero-filled anyway.
  int count_;
};

Options &options();

// The row of `name`, or nullptr for an unknown key.
const OptionSpec *find_option_spec(const char *name);

// Why `value` is not allowed for `spec` (a short phrase for an error line),
// or nullptr when it is.
const char *option_value_problem(const OptionSpec &spec, const char *value);

}  // namespace snag
