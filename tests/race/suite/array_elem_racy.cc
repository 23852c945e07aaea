// snag-race-suite
// expect: racy
// why: both threads update the same element of a global array
#include <thread>

int slots[8];

__attribute__((noinline)) void worker(int idx) {
  for (int i = 0; i < 100; ++i)
    slots[idx] += 1;  // RACE:first RACE:second
}

int main() {
  std::thread a(worker, 2), b(worker, 2);
  a.join();
  b.join();
  return 0;
}
