// explore suite: lost_update_all_2, buggy twin.
// Each of the 2 writers increments the counter with a separate load and store, and the
// check after joining fails only when every writer loaded the initial 0, that is when all
// 2 writers are between their load and their store at once (one preemption).
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kWriters = 2;
std::atomic<int> counter{0};
std::atomic<int> saw_other{0};  // writers that saw another writer's increment

void writer() {
  int seen = counter.load(std::memory_order_relaxed);
  counter.store(seen + 1, std::memory_order_relaxed);
  if (seen > 0)
    saw_other.fetch_add(1, std::memory_order_relaxed);
}

int main() {
  std::thread threads[kWriters];
  for (std::thread& t : threads)
    t = std::thread(writer);
  for (std::thread& t : threads)
    t.join();
  assert(saw_other.load() > 0);  // BUG: assertion-failure
  return 0;
}
