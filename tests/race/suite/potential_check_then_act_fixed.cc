// snag-race-suite
// expect: clean
// why: the worker updates the statistic while it still holds the mutex, so both accesses share the lock whatever order the threads take it in
// run: snag race --potential
#include <atomic>
#include <mutex>
#include <thread>

std::mutex m;
int queued;
int served;
std::atomic<int> stage{0};

__attribute__((noinline)) void producer() {
  {
    std::lock_guard<std::mutex> g(m);
    queued = 1;
    served = 0;
  }
  stage.store(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void worker() {
  while (stage.load(std::memory_order_relaxed) != 1) std::this_thread::yield();
  {
    std::lock_guard<std::mutex> g(m);
    served = queued;
  }
}

int main() {
  std::thread a(producer), b(worker);
  a.join();
  b.join();
  return served == 1 ? 0 : 1;
}
