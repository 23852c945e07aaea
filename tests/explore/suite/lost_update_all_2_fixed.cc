// explore suite: lost_update_all_2, fixed twin.
// Each writer increments the counter with one fetch_add, so every writer but the first
// sees an earlier increment.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kWriters = 2;
std::atomic<int> counter{0};
std::atomic<int> saw_other{0};  // writers that saw another writer's increment

void writer() {
  int seen = counter.fetch_add(1, std::memory_order_relaxed);
  if (seen > 0)
    saw_other.fetch_add(1, std::memory_order_relaxed);
}

int main() {
  std::thread threads[kWriters];
  for (std::thread& t : threads)
    t = std::thread(writer);
  for (std::thread& t : threads)
    t.join();
  assert(saw_other.load() > 0);
  return 0;
}
