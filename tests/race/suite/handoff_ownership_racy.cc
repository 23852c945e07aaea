// snag-race-suite
// expect: racy
// why: the producer keeps writing a job AFTER handing it to the consumer through the locked queue; the consumer then accesses it unlocked
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

struct Job {
  int input;
  int output;
};

std::mutex m;
std::condition_variable cv;
std::deque<Job*> queue;

__attribute__((noinline)) void producer(Job* job, int v) {
  {
    std::lock_guard<std::mutex> g(m);
    queue.push_back(job);
  }
  cv.notify_one();
  job->input = v;  // RACE:first
}

__attribute__((noinline)) void consumer() {
  Job* job;
  {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [] { return !queue.empty(); });
    job = queue.front();
    queue.pop_front();
  }
  job->output = job->input * 2;  // RACE:second
}

int main(int argc, char**) {
  Job* job = new Job{0, 0};
  std::thread c(consumer), p(producer, job, argc + 20);
  p.join();
  c.join();
  delete job;
  return 0;
}
