// snag-race-suite
// expect: racy
// why: two threads increment a plain global int with no synchronization at all
#include <thread>

int counter = 0;

__attribute__((noinline)) void work() {
  for (int i = 0; i < 1000; ++i)
    counter++;  // RACE:first RACE:second
}

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  return counter > 0 ? 0 : 1;
}
