// snag-race-suite
// expect: clean
// why: a detached worker writes the result, then sets the predicate under the mutex and notifies; main waits on the condition variable
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

// Leaked on purpose: the detached thread may still touch them while main exits.
std::mutex& m = *new std::mutex;
std::condition_variable& cv = *new std::condition_variable;
bool ready = false;
int result = 0;
std::atomic<bool> finished{false};  // relaxed only: lets main wait for the thread to exit without creating happens-before

__attribute__((noinline)) void worker(int v) {
  result = v * 2;
  {
    std::lock_guard<std::mutex> g(m);
    ready = true;
  }
  cv.notify_one();
  finished.store(true, std::memory_order_relaxed);
}

int main(int argc, char**) {
  std::thread(worker, argc + 20).detach();
  {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [] { return ready; });
  }
  int r = result;
  while (!finished.load(std::memory_order_relaxed))
    std::this_thread::yield();
  return r == (argc + 20) * 2 ? 0 : 1;
}
