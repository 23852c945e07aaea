// snag-tsv-suite
// expect: clean
// why: the two threads' push_back calls on the shared std::vector are both made under the same mutex
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

std::vector<int> results;
std::mutex results_mutex;
std::latch start(2);

__attribute__((noinline)) void report(int value) {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(results_mutex);
  results.push_back(value);
}

int main() {
  results.reserve(16);
  std::thread a(report, 1), b(report, 2);
  a.join();
  b.join();
  return 0;
}
