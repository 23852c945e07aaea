#include "core/text_buffer.h"

#include "core/internal_alloc.h"
#include "core/platform.h"

namespace snag {

TextBuffer::~TextBuffer() { internal_free(data_); }

void TextBuffer::reserve(size_t extra) {
  if (size_ + extra <= capacity_) return;
  size_t wanted = capacity_ ? capacity_ * 2 : 1024;
  while (wanted < size_ + extra) wanted *= 2;
  data_ = static_cast<char *>(internal_realloc(data_, wanted));
  capacity_ = wanted;
}

TextBuffer &TextBuffer::add(const char *s, size_t n) {
  reserve(n);
  copy_bytes(data_ + size_, s, n);
  size_ += n;
  return *this;
}

TextBuffer &TextBuffer::add(const char *s) { return add(s, cstr_len(s)); }

TextBuffer &TextBuffer::add(char c) { return add(&c, 1); }

TextBuffer &TextBuffer::add_u64(uint64_t v) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  reserve(n);
  while (n) data_[size_++] = digits[--n];
  return *this;
}

TextBuffer &TextBuffer::add_i64(int64_t v) {
  if (v < 0) {
    add('-');
    return add_u64(static_cast<uint64_t>(-(v + 1)) + 1);
  }
  return add_u64(static_cast<uint64_t>(v));
}

TextBuffer &TextBuffer::add_hex(uint64_t v, int min_digits) {
  char digits[16];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  while (n < min_digits && n < 16) digits[n++] = '0';
  reserve(n);
  while (n) data_[size_++] = digits[--n];
  return *this;
}

TextBuffer &TextBuffer::add_address(uintptr_t v) { return add("0x", 2).add_hex(v, 12); }

TextBuffer &TextBuffer::add_double(double v) {
  if (v < 0) add('-'), v = -v;
  uint64_t whole = static_cast<uint64_t>(v);
  uint64_t frac = static_cast<uint64_t>((v - static_cast<double>(whole)) * 1000.0 + 0.5);
  if (frac >= 1000) ++whole, frac -= 1000;
  add_u64(whole).add('.');
  if (frac < 100) add('0');
  if (frac < 10) add('0');
  return add_u64(frac);
}

TextBuffer &TextBuffer::add_json_string(const char *s, size_t n) {
  add('"');
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') add('\\').add(static_cast<char>(c));
    else if (c == '\n') add("\\n", 2);
    else if (c == '\t') add("\\t", 2);
    else if (c < 0x20) add("\\u00", 4).add_hex(c, 2);
    else add(static_cast<char>(c));
  }
  return add('"');
}

TextBuffer &TextBuffer::add_json_string(const char *s) { return add_json_string(s, cstr_len(s)); }

void TextBuffer::write_to(int fd) const { write_all(fd, data_, size_); }

}  // namespace snag
