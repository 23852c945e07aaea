// explore suite: publish_before_init, fixed twin.
// The submitter sets the job's size before it publishes the job pointer.
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
  j->size.store(64);
  current.store(j);
}

void runner() {
  Job* j = current.load();
  if (j != nullptr) {
    int n = j->size.load();
    assert(n == 64);
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
