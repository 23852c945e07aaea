// explore suite: two_fields_range, buggy twin.
// shift() moves the range [lo, hi] with two separate stores, so a checker that runs while
// shift() is preempted between them sees lo above hi.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> lo{0};
std::atomic<int> hi{10};

void shift() {
  lo.store(20, std::memory_order_relaxed);
  hi.store(30, std::memory_order_relaxed);
}

void check() {
  int l = lo.load(std::memory_order_relaxed);
  int h = hi.load(std::memory_order_relaxed);
  assert(l <= h);  // BUG: assertion-failure
}

int main() {
  std::thread a(shift);
  std::thread b(check);
  a.join();
  b.join();
  return 0;
}
