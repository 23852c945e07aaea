// snag-tsv-suite
// expect: violation
// object: std::priority_queue<int>
// why: two threads push() onto the same std::priority_queue at the same time with no lock (its vector's capacity is reserved)
#include <latch>
#include <queue>
#include <thread>
#include <vector>

std::priority_queue<int> tasks;
std::latch start(2);

__attribute__((noinline)) void schedule(int priority) {
  start.arrive_and_wait();
  tasks.push(priority);  // TSV:first TSV:second
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
