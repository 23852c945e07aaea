// A growable character buffer in runtime memory, for building report lines
// and JSON without malloc or stdio.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace snag {

class TextBuffer {
 public:
  TextBuffer() = default;
  ~TextBuffer();
  TextBuffer(const TextBuffer &) = delete;
  TextBuffer &operator=(const TextBuffer &) = delete;

  TextBuffer &add(const char *s);
  TextBuffer &add(const char *s, size_t n);
  TextBuffer &add(char c);
  TextBuffer &add_u64(uint64_t v);
  TextBuffer &add_i64(int64_t v);
  TextBuffer &add_hex(uint64_t v, int min_digits = 1);  // without "0x"
  TextBuffer &add_address(uintptr_t v);                 // "0x..."
  TextBuffer &add_double(double v);                     // fixed, 3 decimals
  // A JSON string literal, quotes included.
  TextBuffer &add_json_string(const char *s, size_t n);
  TextBuffer &add_json_string(const char *s);

  const char *data() const { return data_; }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }

  // Writes the buffer to `fd` in one write (as far as the kernel allows).
  void write_to(int fd) const;

 private:
  void reserve(size_t extra);
  char *data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace snag
