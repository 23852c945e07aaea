// snag-race-suite
// expect: clean
// why: each thread updates its own (adjacent) element of the array; distinct elements never race
#include <thread>

int slots[8];

__attribute__((noinline)) void worker(int idx) {
  for (int i = 0; i < 100; ++i)
    slots[idx] += 1;
}

int main() {
  std::thread a(worker, 2), b(worker, 3);
  a.join();
  b.join();
  return slots[2] == 100 && slots[3] == 100 ? 0 : 1;
}
