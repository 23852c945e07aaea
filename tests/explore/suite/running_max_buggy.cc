// explore suite: running_max, buggy twin.
// offer() compares with the current maximum and stores in a separate atomic operation, so
// when the thread offering 5 is preempted between its comparison and its store while the
// thread offering 7 runs, the smaller value overwrites the larger one.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> best{0};

void offer(int value) {
  if (value > best.load(std::memory_order_relaxed))
    best.store(value, std::memory_order_relaxed);
}

int main() {
  std::thread a(offer, 5);
  std::thread b(offer, 7);
  a.join();
  b.join();
  assert(best.load() == 7);  // BUG: assertion-failure
  return 0;
}
