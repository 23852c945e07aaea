// snag-tsv-suite
// expect: violation
// object: std::list<int>
// why: one thread push_backs onto a std::list while another reads its size(), with no lock
#include <latch>
#include <list>
#include <thread>

std::list<int> history = {1, 2};
std::latch start(2);
std::size_t length = 0;

__attribute__((noinline)) void recorder() {
  start.arrive_and_wait();
  history.push_back(3);  // TSV:first
}

__attribute__((noinline)) void reporter() {
  start.arrive_and_wait();
  length = history.size();  // TSV:second
}

int main() {
  std::thread w(recorder), r(reporter);
  w.join();
  r.join();
  return 0;
}
