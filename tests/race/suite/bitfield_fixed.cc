// snag-race-suite
// expect: clean
// why: a zero-width bit-field separates the two bit-fields into distinct memory locations, so the writes do not race
#include <thread>

struct Bits {
  unsigned a : 4;
  unsigned : 0;
  unsigned b : 4;
};

Bits bits;

__attribute__((noinline)) void set_a() {
  bits.a = 5;
}

__attribute__((noinline)) void set_b() {
  bits.b = 9;
}

int main() {
  std::thread x(set_a), y(set_b);
  x.join();
  y.join();
  return bits.a == 5 && bits.b == 9 ? 0 : 1;
}
