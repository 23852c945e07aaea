/* memcmp, bcmp, strcmp and strncmp under the race engine, which compares in
 * its interceptors itself (intercept/libc_memory.cpp): every result must
 * have the sign a plain byte loop gives, over equal, shorter, longer and
 * differing inputs, differences at every position and bytes above 127.
 * Exits 1 naming the first wrong comparison. */
#include <stdio.h>
#include <string.h>

static int sign(int x) { return (x > 0) - (x < 0); }

static int expected(const unsigned char *a, const unsigned char *b, size_t n, int strings) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    if (strings && a[i] == 0) return 0;
  }
  return 0;
}

static int failures;

static void expect(const char *what, int got, int want, size_t at, size_t n) {
  if (sign(got) == want) return;
  if (!failures++) fprintf(stderr, "comparisons: %s: got %d, want sign %d (difference at %zu, n %zu)\n", what, got, want, at, n);
}

int main(void) {
  unsigned char a[40], b[40];
  for (size_t n = 0; n <= 33; ++n)
    for (size_t at = 0; at <= n; ++at)
      for (int delta = -1; delta <= 1; delta += 2) {
        for (size_t i = 0; i < sizeof a; ++i) a[i] = b[i] = (unsigned char)('a' + i % 26);
        a[n] = b[n] = 0;
        if (at < n) b[at] = (unsigned char)(delta < 0 ? 0xf0 : 0x01);
        expect("memcmp", memcmp(a, b, n), expected(a, b, n, 0), at, n);
        expect("bcmp", bcmp(a, b, n) != 0, expected(a, b, n, 0) != 0, at, n);
        expect("strcmp", strcmp((char *)a, (char *)b), expected(a, b, sizeof a, 1), at, n);
        expect("strncmp", strncmp((char *)a, (char *)b, n), expected(a, b, n, 1), at, n);
        expect("strncmp past the end", strncmp((char *)a, (char *)b, n + 5), expected(a, b, n + 5, 1), at, n);
      }
  expect("strcmp prefix", strcmp("abc", "abcd"), -1, 3, 4);
  expect("strcmp longer", strcmp("abcd", "abc"), 1, 3, 4);
  return failures ? 1 : 0;
}
