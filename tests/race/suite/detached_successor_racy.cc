// snag-race-suite
// expect: racy
// why: detached workers run one after another; each writes `last_worker` after it signalled main, so the next worker's write is unordered with it
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

// Leaked on purpose: the last detached thread may still touch them while main exits.
std::mutex& m = *new std::mutex;
std::condition_variable& cv = *new std::condition_variable;
int done = 0;
int last_worker = -1;
std::atomic<int> exited{0};  // relaxed only: lets main wait for the threads to exit without creating happens-before

__attribute__((noinline)) void worker(int id) {
  {
    std::lock_guard<std::mutex> g(m);
    ++done;
  }
  cv.notify_one();
  last_worker = id;  // RACE:first RACE:second
  exited.fetch_add(1, std::memory_order_relaxed);
}

int main() {
  constexpr int kWorkers = 64;
  for (int i = 0; i < kWorkers; ++i) {
    std::thread(worker, i).detach();
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [i] { return done == i + 1; });
  }
  while (exited.load(std::memory_order_relaxed) != kWorkers) std::this_thread::yield();
  return 0;
}
