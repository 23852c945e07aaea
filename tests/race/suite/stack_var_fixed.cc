// snag-race-suite
// expect: clean
// why: a stack variable of main is written by a thread through a pointer and read by main only after join
#include <thread>

__attribute__((noinline)) void fill(int* progress) {
  for (int i = 1; i <= 100; ++i)
    *progress = i;
}

int main() {
  int progress = 0;
  std::thread t(fill, &progress);
  t.join();
  int snapshot = progress;
  return snapshot == 100 ? 0 : 1;
}
