// snag-race-suite
// expect: clean
// why: two int fields sharing one 8-byte word, each written only by its own thread (distinct memory locations)
#include <thread>

struct alignas(8) Pair {
  int a;
  int b;
};

Pair pair;

__attribute__((noinline)) void left() {
  pair.a = 7;
}

__attribute__((noinline)) void right() {
  pair.b = -7;
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return pair.a == 7 && pair.b == -7 ? 0 : 1;
}
