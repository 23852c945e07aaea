// libc functions that read or write the program's memory on its behalf:
// string and memory comparisons, string copies, and stdio output. The
// compiler pass only sees the call, so each one reports the bytes it
// touched as one ranged access at the call's site, as a plain loop in the
// program would. (Buffers of read/write/send/recv: intercept/fd_io.cpp.)
//
// dlsym, which finds the real functions, calls strlen and memcmp itself:
// while a real function is being looked up on this thread, these
// interceptors fall back to plain loops instead of recursing.
#include <atomic>
#include <stdio.h>
#include <string.h>

#include "intercept/real.h"
#include "snag/abi.h"

using namespace snag;

namespace {

SNAG_TLS bool t_resolving;

template <typename Fn>
__attribute__((noinline)) Fn look_up(std::atomic<Fn> &slot, const char *name) {
  t_resolving = true;
  Fn fn = reinterpret_cast<Fn>(lookup_real(name, nullptr));
  t_resolving = false;
  slot.store(fn, std::memory_order_release);
  return fn;
}

// The real function, looked up the first time. The test inlined, the
// lookup not: every call after the first made a call just for the load
// (task_graph's string sort: 3.1 million memcmp, 11 instructions each).
template <typename Fn>
SNAG_ALWAYS_INLINE Fn resolve(std::atomic<Fn> &slot, const char *name) {
  Fn fn = slot.load(std::memory_order_acquire);
  if (SNAG_LIKELY(fn) || t_resolving) return fn;
  return look_up(slot, name);
}

// Only an engine that watches memory (the race engine) needs the ranges; the
// others should not pay for a second pass over the bytes.
bool wants_accesses() { return g_access_hook && observing_thread(); }

void read_bytes(const void *p, size_t n) {
  if (n && wants_accesses()) __snag_read_range(const_cast<void *>(p), n, caller_site());
}

void write_bytes(void *p, size_t n) {
  if (n && wants_accesses()) __snag_write_range(p, n, caller_site());
}

// Both sides of a comparison, for a caller that asked wants_accesses()
// already: one site for the two ranges (task_graph's string sort compares
// 3.5 million times).
void read_both(const void *a, const void *b, size_t n) {
  if (!n) return;
  const snag_site_t site = caller_site();
  __snag_read_range(const_cast<void *>(a), n, site);
  __snag_read_range(const_cast<void *>(b), n, site);
}

size_t plain_strlen(const char *s) {
  size_t n = 0;
  while (s[n]) ++n;
  return n;
}

// One comparison done here, byte by byte: its result (the difference of
// the first differing bytes; C gives only its sign a meaning), and the
// bytes each side read, up to and including the first difference (or the
// terminating NUL for strings). The accesses need the second, so the real
// function would only do the same comparison again (task_graph's string
// sort: 3.5 million).
struct Comparison {
  int result;
  size_t touched;
};

SNAG_ALWAYS_INLINE Comparison compare_bytes(const void *left, const void *right, size_t limit, bool strings) {
  auto *a = static_cast<const unsigned char *>(left);
  auto *b = static_cast<const unsigned char *>(right);
  size_t i = 0;
  while (i < limit && a[i] == b[i] && !(strings && a[i] == 0)) ++i;
  if (i == limit) return {0, limit};
  return {int(a[i]) - int(b[i]), i + 1};
}

using memcmp_fn = int (*)(const void *, const void *, size_t);
using strcmp_fn = int (*)(const char *, const char *);
using strncmp_fn = int (*)(const char *, const char *, size_t);
using strlen_fn = size_t (*)(const char *);
using strcpy_fn = char *(*)(char *, const char *);

std::atomic<memcmp_fn> g_memcmp, g_bcmp;
std::atomic<strcmp_fn> g_strcmp;
std::atomic<strncmp_fn> g_strncmp;
std::atomic<strlen_fn> g_strlen;
std::atomic<strcpy_fn> g_strcpy;

// With the other real functions (real.h: look_up_all_reals).
void look_up_memory_reals() {
  resolve(g_memcmp, "memcmp");
  resolve(g_bcmp, "bcmp");
  resolve(g_strcmp, "strcmp");
  resolve(g_strncmp, "strncmp");
  resolve(g_strlen, "strlen");
  resolve(g_strcpy, "strcpy");
}
__attribute__((used, section("snag_reals"))) const RealSlot g_memory_reals = {look_up_memory_reals};

// A comparison under an engine that wants accesses: done here, with the
// bytes it read reported.
SNAG_ALWAYS_INLINE int compare_reporting(const void *a, const void *b, size_t limit, bool strings) {
  Comparison c = compare_bytes(a, b, limit, strings);
  read_both(a, b, c.touched);
  return c.result;
}

int compare_memory(std::atomic<memcmp_fn> &slot, const char *name, const void *a, const void *b,
                   size_t n) {
  memcmp_fn real = resolve(slot, name);
  if (!real) return compare_bytes(a, b, n, false).result;
  return wants_accesses() ? compare_reporting(a, b, n, false) : real(a, b, n);
}

}  // namespace

// dlsym does not print: these three can be looked up the usual way.
SNAG_REAL(int, puts, (const char *))
SNAG_REAL(int, fputs, (const char *, FILE *))
SNAG_REAL(size_t, fwrite, (const void *, size_t, size_t, FILE *))

SNAG_INTERCEPTOR int memcmp(const void *a, const void *b, size_t n) {
  return compare_memory(g_memcmp, "memcmp", a, b, n);
}

SNAG_INTERCEPTOR int bcmp(const void *a, const void *b, size_t n) {
  return compare_memory(g_bcmp, "bcmp", a, b, n);
}

SNAG_INTERCEPTOR int strcmp(const char *a, const char *b) {
  strcmp_fn real = resolve(g_strcmp, "strcmp");
  if (!real) return compare_bytes(a, b, SIZE_MAX, true).result;
  return wants_accesses() ? compare_reporting(a, b, SIZE_MAX, true) : real(a, b);
}

SNAG_INTERCEPTOR int strncmp(const char *a, const char *b, size_t n) {
  strncmp_fn real = resolve(g_strncmp, "strncmp");
  if (!real) return compare_bytes(a, b, n, true).result;
  return wants_accesses() ? compare_reporting(a, b, n, true) : real(a, b, n);
}

SNAG_INTERCEPTOR size_t strlen(const char *s) {
  strlen_fn real = resolve(g_strlen, "strlen");
  size_t n = real ? real(s) : plain_strlen(s);
  read_bytes(s, n + 1);
  return n;
}

SNAG_INTERCEPTOR char *strcpy(char *to, const char *from) {
  strcpy_fn real = resolve(g_strcpy, "strcpy");
  if (!real) return static_cast<char *>(memmove(to, from, plain_strlen(from) + 1));
  if (wants_accesses()) {
    size_t n = plain_strlen(from) + 1;
    read_bytes(from, n);
    write_bytes(to, n);
  }
  return real(to, from);
}

SNAG_INTERCEPTOR int puts(const char *s) {
  if (wants_accesses()) read_bytes(s, plain_strlen(s) + 1);
  return real_puts()(s);
}

SNAG_INTERCEPTOR int fputs(const char *s, FILE *f) {
  if (wants_accesses()) read_bytes(s, plain_strlen(s) + 1);
  return real_fputs()(s, f);
}

SNAG_INTERCEPTOR size_t fwrite(const void *data, size_t size, size_t count, FILE *f) {
  read_bytes(data, size * count);
  return real_fwrite()(data, size, count, f);
}
