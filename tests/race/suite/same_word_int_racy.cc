// snag-race-suite
// expect: racy
// why: both threads write the same int field of an 8-byte struct
#include <thread>

struct alignas(8) Pair {
  int a;
  int b;
};

Pair pair;

__attribute__((noinline)) void left() {
  pair.a = 7;  // RACE:first
}

__attribute__((noinline)) void right() {
  pair.a = -7;  // RACE:second
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return 0;
}
