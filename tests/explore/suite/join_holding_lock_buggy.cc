// explore suite: join_holding_lock, buggy twin.
// main joins the worker while holding the mutex the worker needs, so whenever main takes
// the mutex before the worker does (no preemption needed) both wait forever.
// explore-budget: 2000
#include <mutex>
#include <thread>

std::mutex results_mutex;
int results = 0;  // guarded by results_mutex
bool closed = false;  // guarded by results_mutex

void worker() {
  std::lock_guard<std::mutex> g(results_mutex);  // BUG: deadlock
  if (!closed)
    ++results;
}

int main() {
  std::thread t(worker);
  {
    std::lock_guard<std::mutex> g(results_mutex);  // BUG: deadlock
    closed = true;
    t.join();  // BUG: deadlock
  }
  return 0;
}
