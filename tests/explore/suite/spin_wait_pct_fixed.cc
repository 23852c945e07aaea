// explore suite: spin_wait_pct, fixed twin.
// A consumer spin-waits (acquire loads, no yield) until the producer has stored the data
// and then set the flag; under PCT the spinning thread may have the highest priority, and
// the schedule must still let the producer run: no hang.
// explore-budget: 2000
// explore-options: --strategy pct
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> data{0};
std::atomic<bool> ready{false};

void produce() {
  data.store(42, std::memory_order_relaxed);
  ready.store(true, std::memory_order_release);
}

void consume() {
  while (!ready.load(std::memory_order_acquire)) {
  }
  assert(data.load(std::memory_order_relaxed) == 42);
}

int main() {
  std::thread c(consume);
  std::thread p(produce);
  c.join();
  p.join();
  return 0;
}
