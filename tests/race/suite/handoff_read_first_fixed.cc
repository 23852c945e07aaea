// snag-race-suite
// expect: clean
// why: the same turns as handoff_read_first_racy, but the producer writes the input before it hands the job over through the locked queue
#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

struct Job {
  int input;
  int output;
};

std::mutex m;
std::deque<Job*> queue;
std::atomic<int> turn{0};

void wait_for_turn(int n) {
  while (turn.load(std::memory_order_relaxed) != n) std::this_thread::yield();
}

__attribute__((noinline)) void producer(Job* job, int v) {
  job->input = v;
  {
    std::lock_guard<std::mutex> g(m);
    queue.push_back(job);
  }
  turn.store(1, std::memory_order_relaxed);
  wait_for_turn(2);
}

__attribute__((noinline)) void consumer() {
  wait_for_turn(1);
  Job* job;
  {
    std::lock_guard<std::mutex> g(m);
    job = queue.front();
    queue.pop_front();
  }
  job->output = job->input * 2;
  turn.store(2, std::memory_order_relaxed);
}

int main(int argc, char**) {
  Job* job = new Job{0, 0};
  std::thread c(consumer), p(producer, job, argc + 20);
  c.join();
  p.join();
  delete job;
  return 0;
}
