// The bitcode cache of `snag check`'s front end: one file per content key,
// <dir>/<2 hex digits>/<38 hex digits>.bc, holding the bitcode after mem2reg.
// Writers go through a temporary file and rename(2), so concurrent `snag
// check` runs (editors, CI jobs) never read a half-written entry; a failure
// to read or write the cache only costs a compilation.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace snag::interp::frontend {

// A SHA-1 over the parts, each prefixed with its length so that ("ab", "c")
// and ("a", "bc") differ; 40 lowercase hex digits.
std::string content_key(const std::vector<std::string> &parts);

class BitcodeCache {
 public:
  explicit BitcodeCache(std::string dir) : dir_(std::move(dir)) {}

  bool enabled() const { return !dir_.empty(); }
  std::string path_for(const std::string &key) const;
  // The bitcode stored under `key`, if any.
  std::optional<std::string> load(const std::string &key) const;
  // Stores `bitcode` under `key`; false (and nothing stored) on any error.
  bool store(const std::string &key, const std::string &bitcode) const;

 private:
  std::string dir_;
};

}  // namespace snag::interp::frontend
