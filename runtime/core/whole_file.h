// A small regular file read whole into runtime memory, for the parsers of
// the files engines carry between runs (the tsv trap file, the guard
// invariants file). Freed when the WholeFile goes out of scope.
#pragma once

#include <stddef.h>

namespace snag {

class WholeFile {
 public:
  enum Status { kRead, kCannotOpen, kNotRegular };  // kNotRegular: or larger than the limit

  WholeFile() = default;
  WholeFile(const WholeFile &) = delete;
  WholeFile &operator=(const WholeFile &) = delete;
  ~WholeFile();

  Status read(const char *path, size_t max_size);

  const char *text() const { return text_; }  // NUL-terminated
  size_t size() const { return size_; }

 private:
  char *text_ = nullptr;
  size_t size_ = 0;
  size_t mapped_ = 0;
};

}  // namespace snag
