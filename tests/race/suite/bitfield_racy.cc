// snag-race-suite
// expect: racy
// why: adjacent bit-fields form ONE memory location, so writing different bit-fields from two threads is a data race
#include <thread>

struct Bits {
  unsigned a : 4;
  unsigned b : 4;
};

Bits bits;

__attribute__((noinline)) void set_a() {
  bits.a = 5;  // RACE:first
}

__attribute__((noinline)) void set_b() {
  bits.b = 9;  // RACE:second
}

int main() {
  std::thread x(set_a), y(set_b);
  x.join();
  y.join();
  return 0;
}
