// snag-tsv-suite
// expect: clean
// why: the std::list's push_back and size() are both made under the same mutex
#include <latch>
#include <list>
#include <mutex>
#include <thread>

std::list<int> history = {1, 2};
std::mutex history_mutex;
std::latch start(2);
std::size_t length = 0;

__attribute__((noinline)) void recorder() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(history_mutex);
  history.push_back(3);
}

__attribute__((noinline)) void reporter() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(history_mutex);
  length = history.size();
}

int main() {
  std::thread w(recorder), r(reporter);
  w.join();
  r.join();
  return 0;
}
