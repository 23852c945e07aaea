// explore suite: running_max, fixed twin.
// offer() replaces the maximum with a compare-exchange loop that retries while its value is
// still larger, so a concurrent larger store is never overwritten.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> best{0};

void offer(int value) {
  int current = best.load(std::memory_order_relaxed);
  while (value > current &&
         !best.compare_exchange_strong(current, value, std::memory_order_relaxed)) {
  }
}

int main() {
  std::thread a(offer, 5);
  std::thread b(offer, 7);
  a.join();
  b.join();
  assert(best.load() == 7);
  return 0;
}
