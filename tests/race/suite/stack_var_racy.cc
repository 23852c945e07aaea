// snag-race-suite
// expect: racy
// why: a stack variable of main is written by a thread through a pointer while main reads it before joining
#include <thread>

__attribute__((noinline)) void fill(int* progress) {
  for (int i = 1; i <= 100; ++i)
    *progress = i;  // RACE:first
}

int main() {
  int progress = 0;
  std::thread t(fill, &progress);
  int snapshot = progress;  // RACE:second
  t.join();
  return snapshot >= 0 ? 0 : 1;
}
