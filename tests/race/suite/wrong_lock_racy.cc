// snag-race-suite
// expect: racy
// why: each thread protects the shared total with a different mutex, so nothing orders the updates
#include <mutex>
#include <thread>

long total = 0;
std::mutex m1, m2;

__attribute__((noinline)) void add_ones() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m1);
    total += 1;  // RACE:first
  }
}

__attribute__((noinline)) void add_twos() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m2);
    total += 2;  // RACE:second
  }
}

int main() {
  std::thread a(add_ones), b(add_twos);
  a.join();
  b.join();
  return 0;
}
