// snag-tsv-suite
// expect: violation
// object: std::multimap<int, int>
// why: the writer inserts into a std::multimap under a unique_lock of a shared_mutex, but the reader calls equal_range() without taking any lock
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
  events.insert({3, 301});  // TSV:first
}

__attribute__((noinline)) void scanner() {
  start.arrive_and_wait();
  auto range = events.equal_range(2);  // TSV:second
  first_of_two = range.first->second;
}

int main() {
  std::thread w(logger), r(scanner);
  w.join();
  r.join();
  return 0;
}
