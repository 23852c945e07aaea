// snag-race-suite
// expect: clean
// why: the shared hit counter is a std::atomic<int>, so ++ and += are atomic read-modify-writes (identical code otherwise)
#include <atomic>
#include <thread>

std::atomic<int> hits = 0;

__attribute__((noinline)) void count_ones() {
  for (int i = 0; i < 1000; ++i)
    hits++;
}

__attribute__((noinline)) void count_twos() {
  for (int i = 0; i < 1000; ++i)
    hits += 2;
}

int main() {
  std::thread a(count_ones), b(count_twos);
  a.join();
  b.join();
  return hits == 3000 ? 0 : 1;
}
