// snag-race-suite
// expect: racy
// why: two threads read a lookup table while a third thread updates one of its entries, with no synchronization
#include <thread>

int table[64];
long sums[2];

__attribute__((noinline)) void reader(int id) {
  long s = 0;
  for (int i = 0; i < 64; ++i) s += table[i];  // RACE:second
  sums[id] = s;
}

__attribute__((noinline)) void updater() {
  table[10] = -1;  // RACE:first
}

int main() {
  for (int i = 0; i < 64; ++i) table[i] = i;
  std::thread r0(reader, 0), u(updater), r1(reader, 1);
  r0.join();
  u.join();
  r1.join();
  return 0;
}
