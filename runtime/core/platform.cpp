#include "core/platform.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace snag {

long raw_syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6) {
#if defined(__x86_64__)
  long result;
  register long r10 __asm__("r10") = a4;
  register long r8 __asm__("r8") = a5;
  register long r9 __asm__("r9") = a6;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  if (result < 0 && result > -4096) {
    errno = static_cast<int>(-result);
    return -1;
  }
  return result;
#else
#error "snag's runtime supports x86-64 Linux only"
#endif
}

void write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    long n = raw_syscall(SYS_write, fd, reinterpret_cast<long>(data), static_cast<long>(len));
    if (n < 0) {
      if (errno == EINTR) continue;
      return;
    }
    data += n;
    len -= static_cast<size_t>(n);
  }
}

void print_error(const char *message) {
  char line[512];
  size_t n = 0;
  for (const char *p = "snag: "; *p && n < sizeof line - 1; ++p) line[n++] = *p;
  for (const char *p = message; *p && n < sizeof line - 1; ++p) line[n++] = *p;
  line[n++] = '\n';
  write_all(2, line, n);
}

void fatal(const char *message) {
  print_error(message);
  raw_syscall(SYS_exit_group, 2);
  __builtin_unreachable();
}

size_t cstr_len(const char *s) {
  size_t n = 0;
  while (s[n]) ++n;
  return n;
}

bool cstr_eq(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

bool cstr_starts_with(const char *s, const char *prefix) {
  while (*prefix)
    if (*s++ != *prefix++) return false;
  return true;
}

void copy_text(char *dst, size_t capacity, const char *src) {
  size_t n = 0;
  while (src && src[n] && n + 1 < capacity) {
    dst[n] = src[n];
    ++n;
  }
  dst[n] = 0;
}

void copy_bytes(void *dst, const void *src, size_t n) { __builtin_memcpy(dst, src, n); }

void fill_bytes(void *dst, int value, size_t n) { __builtin_memset(dst, value, n); }

unsigned CpuSet::count() const {
  unsigned n = 0;
  for (unsigned long word : words) n += unsigned(__builtin_popcountl(word));
  return n;
}

bool allowed_cpus(CpuSet &out) {
  out = CpuSet{};
  return raw_syscall(SYS_sched_getaffinity, 0, static_cast<long>(sizeof out.words),
                     reinterpret_cast<long>(out.words)) > 0;
}

bool set_allowed_cpus(const CpuSet &cpus) {
  return raw_syscall(SYS_sched_setaffinity, 0, static_cast<long>(sizeof cpus.words),
                     reinterpret_cast<long>(cpus.words)) == 0;
}

unsigned cpus_available() {
  CpuSet allowed;
  unsigned count = allowed_cpus(allowed) ? allowed.count() : 0;
  return count > 0 ? count : 1;
}

bool parse_u64(const char *s, size_t len, uint64_t *out) {
  if (len == 0) return false;
  uint64_t value = 0;
  unsigned base = 10;
  size_t i = 0;
  if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, i = 2;
  for (; i < len; ++i) {
    char c = s[i];
    unsigned digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    else return false;
    if (value > (~uint64_t{0} - digit) / base) return false;  // would overflow
    value = value * base + digit;
  }
  *out = value;
  return true;
}

const char *program_file_name(const char *fallback) {
  static char name[256];
  ssize_t n = readlink("/proc/self/exe", name, sizeof name - 1);
  if (n <= 0) return fallback;
  name[n] = 0;
  const char *base = name;
  for (const char *p = name; *p; ++p)
    if (*p == '/') base = p + 1;
  return base;
}

}  // namespace snag
