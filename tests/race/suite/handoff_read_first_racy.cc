// snag-race-suite
// expect: racy
// why: the producer writes a job's input after handing the job over through a locked queue, and the consumer has already read that input (and written the output next to it) before: the read and the later write are unordered (the turns go through a relaxed atomic, which orders nothing)
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
  {
    std::lock_guard<std::mutex> g(m);
    queue.push_back(job);
  }
  turn.store(1, std::memory_order_relaxed);
  wait_for_turn(2);
  job->input = v;  // RACE:first
}

__attribute__((noinline)) void consumer() {
  wait_for_turn(1);
  Job* job;
  {
    std::lock_guard<std::mutex> g(m);
    job = queue.front();
    queue.pop_front();
  }
  job->output = job->input * 2;  // RACE:second
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
