// snag-race-suite
// expect: potential
// why: the worker reads the queue under the mutex but updates the statistic after unlocking; this run orders it after the producer's locked update only because the producer took the mutex first (the relaxed `stage` flag makes that order certain here, and is no synchronization)
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
    served = 0;  // RACE:first
  }
  stage.store(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void worker() {
  while (stage.load(std::memory_order_relaxed) != 1) std::this_thread::yield();
  int n;
  {
    std::lock_guard<std::mutex> g(m);
    n = queued;
  }
  served = n;  // RACE:second
}

int main() {
  std::thread a(producer), b(worker);
  a.join();
  b.join();
  return served == 1 ? 0 : 1;
}
