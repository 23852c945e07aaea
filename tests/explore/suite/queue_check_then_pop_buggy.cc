// explore suite: queue_check_then_pop, buggy twin.
// A worker checks that the job list is non-empty in one critical section and pops in
// another, so when both workers pass the check before either pops (one preemption, at the
// second lock) the second pops from an empty list.
// explore-budget: 2000
#include <cassert>
#include <mutex>
#include <thread>
#include <vector>

std::mutex jobs_mutex;
std::vector<int> jobs{7};  // guarded by jobs_mutex
int done = 0;              // guarded by jobs_mutex

void worker() {
  bool has_work;
  {
    std::lock_guard<std::mutex> g(jobs_mutex);
    has_work = !jobs.empty();
  }
  if (has_work) {
    std::lock_guard<std::mutex> g(jobs_mutex);
    assert(!jobs.empty());  // BUG: assertion-failure
    done += jobs.back();
    jobs.pop_back();
  }
}

int main() {
  std::thread a(worker);
  std::thread b(worker);
  a.join();
  b.join();
  return 0;
}
