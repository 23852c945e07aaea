// snag-race-suite
// expect: racy
// why: both threads write the same char of an 8-byte struct
#include <thread>

struct alignas(8) Flags {
  char x;
  char y;
  char pad[6];
};

Flags flags;

__attribute__((noinline)) void left() {
  flags.x = 7;  // RACE:first
}

__attribute__((noinline)) void right() {
  flags.x = -7;  // RACE:second
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return 0;
}
