// explore suite: observer_three, fixed twin.
// The writers hold a mutex for their whole write, so at most one is ever marked as
// writing.
// explore-budget: 5000
#include <atomic>
#include <cassert>
#include <mutex>
#include <thread>

std::mutex write_mutex;
std::atomic<int> writers{0};
std::atomic<int> value{0};

void writer(int v) {
  std::lock_guard<std::mutex> g(write_mutex);
  writers.fetch_add(1);
  value.store(v);
  writers.fetch_sub(1);
}

void monitor() {
  int w = writers.load();
  assert(w <= 1);
}

int main() {
  std::thread a(writer, 1);
  std::thread b(writer, 2);
  std::thread c(monitor);
  a.join();
  b.join();
  c.join();
  return 0;
}
