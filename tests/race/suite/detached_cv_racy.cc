// snag-race-suite
// expect: racy
// why: a detached worker signals the condition variable BEFORE writing the result, so main's read after the wait is unordered with the write
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
  {
    std::lock_guard<std::mutex> g(m);
    ready = true;
  }
  cv.notify_one();
  result = v * 2;  // RACE:first
  finished.store(true, std::memory_order_relaxed);
}

int main(int argc, char**) {
  std::thread(worker, argc + 20).detach();
  {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [] { return ready; });
  }
  int r = result;  // RACE:second
  while (!finished.load(std::memory_order_relaxed))
    std::this_thread::yield();
  return r >= 0 ? 0 : 1;
}
