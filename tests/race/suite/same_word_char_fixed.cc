// snag-race-suite
// expect: clean
// why: two adjacent chars in one 8-byte struct, each written only by its own thread (distinct memory locations)
#include <thread>

struct alignas(8) Flags {
  char x;
  char y;
  char pad[6];
};

Flags flags;

__attribute__((noinline)) void left() {
  flags.x = 7;
}

__attribute__((noinline)) void right() {
  flags.y = -7;
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return flags.x == 7 && flags.y == -7 ? 0 : 1;
}
