// snag-race-suite
// expect: clean
// why: both threads protect the shared total with the same mutex (m2 exists but is unused for it)
#include <mutex>
#include <thread>

long total = 0;
std::mutex m1, m2;

__attribute__((noinline)) void add_ones() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m1);
    total += 1;
  }
}

__attribute__((noinline)) void add_twos() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m1);
    total += 2;
  }
}

int main() {
  std::thread a(add_ones), b(add_twos);
  a.join();
  b.join();
  return total == 300 ? 0 : 1;
}
