// explore suite: queue_check_then_pop, fixed twin.
// A worker checks and pops in the same critical section.
// explore-budget: 2000
#include <cassert>
#include <mutex>
#include <thread>
#include <vector>

std::mutex jobs_mutex;
std::vector<int> jobs{7};  // guarded by jobs_mutex
int done = 0;              // guarded by jobs_mutex

void worker() {
  std::lock_guard<std::mutex> g(jobs_mutex);
  bool has_work = !jobs.empty();
  if (has_work) {
    assert(!jobs.empty());
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
