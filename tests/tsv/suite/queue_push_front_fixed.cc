// snag-tsv-suite
// expect: clean
// why: the std::queue's push() and front() are both made under the same mutex
#include <latch>
#include <mutex>
#include <queue>
#include <thread>

std::queue<int> jobs;
std::mutex jobs_mutex;
std::latch start(2);
int next_job = 0;

__attribute__((noinline)) void submit() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(jobs_mutex);
  jobs.push(2);
}

__attribute__((noinline)) void peek() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(jobs_mutex);
  next_job = jobs.front();
}

int main() {
  jobs.push(1);
  std::thread s(submit), p(peek);
  s.join();
  p.join();
  return 0;
}
