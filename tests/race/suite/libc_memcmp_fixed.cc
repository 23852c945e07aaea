// snag-race-suite
// expect: clean
// why: the writer finishes (join) before memcmp reads the buffer
#include <cstring>
#include <thread>

char shared_key[16] = "abcdefgh";
const char expected_key[16] = "abcdefgh";
int same = 0;

__attribute__((noinline)) void compare() {
  same = std::memcmp(shared_key, expected_key, 8) == 0;
}

__attribute__((noinline)) void rewrite() {
  shared_key[5] = 'F';
}

int main() {
  std::thread b(rewrite);
  b.join();
  std::thread a(compare);
  a.join();
  return 0;
}
