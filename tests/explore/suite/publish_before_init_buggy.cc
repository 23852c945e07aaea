// explore suite: publish_before_init, buggy twin.
// The submitter publishes the job pointer before it sets the job's size, so a runner that
// picks the job up while the submitter is preempted between the two stores sees size 0.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

struct Job {
  std::atomic<int> size{0};
};

std::atomic<Job*> current{nullptr};

void submitter() {
  Job* j = new Job;
  current.store(j);
  j->size.store(64);
}

void runner() {
  Job* j = current.load();
  if (j != nullptr) {
    int n = j->size.load();
    assert(n == 64);  // BUG: assertion-failure
  }
}

int main() {
  std::thread s(submitter);
  std::thread r(runner);
  s.join();
  r.join();
  delete current.load();
  return 0;
}
