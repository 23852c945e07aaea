// snag-tsv-suite
// expect: violation
// object: std::queue<int>
// why: one thread push()es onto a std::queue while another reads front(), with no lock
#include <latch>
#include <queue>
#include <thread>

std::queue<int> jobs;
std::latch start(2);
int next_job = 0;

__attribute__((noinline)) void submit() {
  start.arrive_and_wait();
  jobs.push(2);  // TSV:first
}

__attribute__((noinline)) void peek() {
  start.arrive_and_wait();
  next_job = jobs.front();  // TSV:second
}

int main() {
  jobs.push(1);
  std::thread s(submit), p(peek);
  s.join();
  p.join();
  return 0;
}
