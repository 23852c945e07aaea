// snag-race-suite
// expect: clean
// why: detached threads run one after another with no happens-before between them (relaxed counter only); each writes only its own stack, which the thread library may recycle for the next thread
#include <atomic>
#include <thread>

constexpr int kThreads = 12;
std::atomic<int> finished{0};  // relaxed only: tells main a thread is done without creating happens-before
std::atomic<long> results[kThreads];

__attribute__((noinline)) long use_stack(int id) {
  volatile int local[512];  // lives on this thread's (possibly recycled) stack
  for (int i = 0; i < 512; ++i) local[i] = id + i;
  long s = 0;
  for (int i = 0; i < 512; ++i) s += local[i];
  return s;
}

__attribute__((noinline)) void worker(int id) {
  results[id].store(use_stack(id), std::memory_order_relaxed);
  finished.fetch_add(1, std::memory_order_relaxed);
}

int main() {
  for (int k = 0; k < kThreads; ++k) {
    std::thread(worker, k).detach();
    while (finished.load(std::memory_order_relaxed) <= k)
      std::this_thread::yield();
  }
  for (int k = 0; k < kThreads; ++k)
    if (results[k].load(std::memory_order_relaxed) != 512L * k + 511L * 512 / 2) return 1;
  return 0;
}
