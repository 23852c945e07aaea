// snag-tsv-suite
// expect: violation
// object: std::vector<int>
// why: two threads push_back into the same std::vector at the same time with no lock (capacity is reserved, so it never reallocates)
#include <latch>
#include <thread>
#include <vector>

std::vector<int> results;
std::latch start(2);

__attribute__((noinline)) void report(int value) {
  start.arrive_and_wait();
  results.push_back(value);  // TSV:first TSV:second
}

int main() {
  results.reserve(16);
  std::thread a(report, 1), b(report, 2);
  a.join();
  b.join();
  return 0;
}
