// explore suite: two_fields_range, fixed twin.
// shift() and check() take one mutex around both fields, so the pair changes and is read
// as a unit.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <mutex>
#include <thread>

std::mutex range_mutex;
std::atomic<int> lo{0};
std::atomic<int> hi{10};

void shift() {
  std::lock_guard<std::mutex> g(range_mutex);
  lo.store(20, std::memory_order_relaxed);
  hi.store(30, std::memory_order_relaxed);
}

void check() {
  std::lock_guard<std::mutex> g(range_mutex);
  int l = lo.load(std::memory_order_relaxed);
  int h = hi.load(std::memory_order_relaxed);
  assert(l <= h);
}

int main() {
  std::thread a(shift);
  std::thread b(check);
  a.join();
  b.join();
  return 0;
}
