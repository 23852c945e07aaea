// snag-race-suite
// expect: clean
// why: the lookup table is written only before the threads start; concurrent reads of shared data never race
#include <thread>

int table[64];
long sums[2];
int probe = -1;

__attribute__((noinline)) void reader(int id) {
  long s = 0;
  for (int i = 0; i < 64; ++i) s += table[i];
  sums[id] = s;
}

__attribute__((noinline)) void updater() {
  probe = table[10];  // a third thread that only reads
}

int main() {
  for (int i = 0; i < 64; ++i) table[i] = i;
  std::thread r0(reader, 0), u(updater), r1(reader, 1);
  r0.join();
  u.join();
  r1.join();
  return sums[0] == 2016 && sums[1] == 2016 && probe == 10 ? 0 : 1;
}
