// snag-tsv-suite
// expect: violation
// object: std::forward_list<int>
// why: one thread push_fronts onto a std::forward_list while another reads front(), with no lock
#include <forward_list>
#include <latch>
#include <thread>

std::forward_list<int> recent = {1};
std::latch start(2);
int newest = 0;

__attribute__((noinline)) void pusher() {
  start.arrive_and_wait();
  recent.push_front(2);  // TSV:first
}

__attribute__((noinline)) void peeker() {
  start.arrive_and_wait();
  newest = recent.front();  // TSV:second
}

int main() {
  std::thread p(pusher), k(peeker);
  p.join();
  k.join();
  return 0;
}
