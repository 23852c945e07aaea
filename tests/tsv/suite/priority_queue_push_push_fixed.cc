// snag-tsv-suite
// expect: clean
// why: the two threads' push() calls on the shared std::priority_queue are both made under the same mutex
#include <latch>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

std::priority_queue<int> tasks;
std::mutex tasks_mutex;
std::latch start(2);

__attribute__((noinline)) void schedule(int priority) {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(tasks_mutex);
  tasks.push(priority);
}

int main() {
  std::vector<int> storage;
  storage.reserve(16);
  tasks = std::priority_queue<int>(std::less<int>(), std::move(storage));
  std::thread a(schedule, 5), b(schedule, 9);
  a.join();
  b.join();
  return 0;
}
