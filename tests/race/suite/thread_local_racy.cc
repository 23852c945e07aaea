// snag-race-suite
// expect: racy
// why: the per-thread scratch counter is mistakenly a plain global, so both threads update the same variable
#include <thread>

long scratch = 0;
long results[2];

__attribute__((noinline)) void work(int id) {
  for (int i = 0; i < 100; ++i)
    results[id] = (scratch += i);  // RACE:first RACE:second
}

int main() {
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return 0;
}
