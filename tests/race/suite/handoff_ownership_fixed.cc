// snag-race-suite
// expect: clean
// why: ownership transfer: the producer fills a job and hands it over through a locked queue; afterwards only the consumer touches it, without a lock (no common lock, but ordered)
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
  job->input = v;
  {
    std::lock_guard<std::mutex> g(m);
    queue.push_back(job);
  }
  cv.notify_one();
}

__attribute__((noinline)) void consumer() {
  Job* job;
  {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [] { return !queue.empty(); });
    job = queue.front();
    queue.pop_front();
  }
  job->output = job->input * 2;
}

int main(int argc, char**) {
  Job* job = new Job{0, 0};
  std::thread c(consumer), p(producer, job, argc + 20);
  p.join();
  c.join();
  int ok = job->output == (argc + 20) * 2;
  delete job;
  return ok ? 0 : 1;
}
