// snag-check-suite
// expect: clean
// why: the heap-allocated Job's progress field is a std::atomic, so main may poll it while the worker runs
#include <atomic>
#include <memory>
#include <thread>

struct Job {
  int input = 0;
  int result = 0;
  std::atomic<int> progress{0};
};

bool seen_finished = false;  // shown in a status line

void run_job(Job* job) {
  job->result = job->input * 2;
  job->progress = 100;
}

int main() {
  auto job = std::make_unique<Job>();
  job->input = 21;
  std::thread worker(run_job, job.get());
  seen_finished = job->progress == 100;
  worker.join();
  return job->result == 42 ? 0 : 1;
}
