// snag-tsv-suite
// expect: clean
// why: the writer inserts into the std::multimap under a unique_lock and the reader calls equal_range() under a shared_lock of the same shared_mutex
#include <latch>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>

std::multimap<int, int> events = {{1, 100}, {2, 200}, {3, 300}};
std::shared_mutex events_mutex;
std::latch start(2);
int first_of_two = 0;

__attribute__((noinline)) void logger() {
  start.arrive_and_wait();
  std::unique_lock<std::shared_mutex> lock(events_mutex);
  events.insert({3, 301});
}

__attribute__((noinline)) void scanner() {
  start.arrive_and_wait();
  std::shared_lock<std::shared_mutex> lock(events_mutex);
  auto range = events.equal_range(2);
  first_of_two = range.first->second;
}

int main() {
  std::thread w(logger), r(scanner);
  w.join();
  r.join();
  return 0;
}
