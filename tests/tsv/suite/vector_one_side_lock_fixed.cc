// snag-tsv-suite
// expect: clean
// why: both the writer's push_back and the reader's size() are made under the same mutex
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

std::vector<int> queue_items;
std::mutex items_mutex;
std::latch start(2);
std::size_t backlog = 0;

__attribute__((noinline)) void producer() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(items_mutex);
  queue_items.push_back(5);
}

__attribute__((noinline)) void monitor() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(items_mutex);
  backlog = queue_items.size();
}

int main() {
  queue_items.reserve(8);
  std::thread p(producer), m(monitor);
  p.join();
  m.join();
  return 0;
}
