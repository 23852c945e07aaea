// snag-race-suite
// expect: clean
// why: the scratch counter is thread_local, so each thread updates its own instance
#include <thread>

thread_local long scratch = 0;
long results[2];

__attribute__((noinline)) void work(int id) {
  for (int i = 0; i < 100; ++i)
    results[id] = (scratch += i);
}

int main() {
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return results[0] == 4950 && results[1] == 4950 ? 0 : 1;
}
