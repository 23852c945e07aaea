// explore suite: spin_wait_pct, buggy twin.
// A consumer spin-waits until the producer sets the flag, but the producer sets it before
// it stores the data, so when it is preempted between the two the consumer reads 0.
// explore-budget: 2000
// explore-options: --strategy pct
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> data{0};
std::atomic<bool> ready{false};

void produce() {
  ready.store(true, std::memory_order_release);
  data.store(42, std::memory_order_relaxed);
}

void consume() {
  while (!ready.load(std::memory_order_acquire)) {
  }
  assert(data.load(std::memory_order_relaxed) == 42);  // BUG: assertion-failure
}

int main() {
  std::thread c(consume);
  std::thread p(produce);
  c.join();
  p.join();
  return 0;
}
