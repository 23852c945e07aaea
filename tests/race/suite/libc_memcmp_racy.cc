// snag-race-suite
// expect: racy
// why: memcmp reads the shared buffer inside libc while another thread writes one of the compared bytes; the call is the program's access
#include <cstring>
#include <thread>

char shared_key[16] = "abcdefgh";
const char expected_key[16] = "abcdefgh";
int same = 0;

__attribute__((noinline)) void compare() {
  same = std::memcmp(shared_key, expected_key, 8) == 0;  // RACE:first
}

__attribute__((noinline)) void rewrite() {
  shared_key[5] = 'F';  // RACE:second
}

int main() {
  std::thread a(compare), b(rewrite);
  a.join();
  b.join();
  return 0;
}
