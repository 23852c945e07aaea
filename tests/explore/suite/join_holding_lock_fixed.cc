// explore suite: join_holding_lock, fixed twin.
// main releases the mutex before it joins the worker.
// explore-budget: 2000
#include <mutex>
#include <thread>

std::mutex results_mutex;
int results = 0;  // guarded by results_mutex
bool closed = false;  // guarded by results_mutex

void worker() {
  std::lock_guard<std::mutex> g(results_mutex);
  if (!closed)
    ++results;
}

int main() {
  std::thread t(worker);
  {
    std::lock_guard<std::mutex> g(results_mutex);
    closed = true;
  }
  t.join();
  return 0;
}
