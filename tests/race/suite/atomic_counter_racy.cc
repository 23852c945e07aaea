// snag-race-suite
// expect: racy
// why: the shared hit counter is a plain int, so the concurrent read-modify-writes from two threads race
#include <thread>

int hits = 0;

__attribute__((noinline)) void count_ones() {
  for (int i = 0; i < 1000; ++i)
    hits++;  // RACE:first
}

__attribute__((noinline)) void count_twos() {
  for (int i = 0; i < 1000; ++i)
    hits += 2;  // RACE:second
}

int main() {
  std::thread a(count_ones), b(count_twos);
  a.join();
  b.join();
  return 0;
}
