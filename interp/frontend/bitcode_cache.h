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

// The files a preprocessed TU was made of, from its line markers
// (`# 12 "path" 1`): the source and every header it included, once each,
// relative paths joined to `directory`.
std::vector<std::string> files_of_preprocessed(const std::string &preprocessed,
                                               const std::string &directory);

class BitcodeCache {
 public:
  explicit BitcodeCache(std::string dir) : dir_(std::move(dir)) {}

  bool enabled() const { return !dir_.empty(); }
  std::string path_for(const std::string &key) const;
  // The bitcode stored under `key`, if any.
  std::optional<std::string> load(const std::string &key) const;
  // Stores `bitcode` under `key`; false (and nothing stored) on any error.
  bool store(const std::string &key, const std::string &bitcode) const;

  // The direct path, as ccache's direct mode: a manifest, kept under a key of
  // the command alone (compiler, flags, directory, file), records the content
  // key and the size and modification time of every file the TU was made of.
  // While none of them changed, the content key is known without running the
  // preprocessor. Files modified in the last two seconds are not trusted (a
  // second write in the same clock tick would go unseen): no manifest then.
  std::optional<std::string> lookup_manifest(const std::string &command_key) const;
  bool store_manifest(const std::string &command_key, const std::string &content_key,
                      const std::vector<std::string> &files) const;

 private:
  std::string dir_;
};

}  // namespace snag::interp::frontend
