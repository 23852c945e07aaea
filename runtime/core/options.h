// SNAG_OPTIONS, parsed once at start-up into a fixed table (docs/options.md).
#pragma once

#include <stdint.h>

namespace snag {

class Options {
 public:
  // Parses `text` ("key=value" pairs separated by ':' or spaces). Malformed
  // pairs are reported once on stderr and skipped.
  void parse(const char *text);

  // The value of `key`, or `fallback` when it is not set. When a key is given
  // twice, the last value wins (the snag command appends its own settings).
  const char *get(const char *key, const char *fallback = nullptr) const;
  uint64_t get_u64(const char *key, uint64_t fallback) const;
  bool get_bool(const char *key, bool fallback) const;
  bool has(const char *key) const { return get(key) != nullptr; }

  // Reports keys that no part of the runtime asked for (typos), once.
  void warn_unused() const;

 private:
  static constexpr int kMaxPairs = 64;
  static constexpr int kBufferSize = 4096;
  char buffer_[kBufferSize];
  struct Pair {
    const char *key;
    const char *value;
    mutable bool used;
  } pairs_[kMaxPairs];
  // No initializers: the options are parsed in .preinit_array, before
  // dynamic initialization, which would otherwise reset them. Static storage
  // is zero-filled anyway.
  int count_;
};

Options &options();

}  // namespace snag
