// snag-race-suite
// expect: racy
// why: detached threads run one after another with no happens-before between them (relaxed counter only), alternately deep and shallow on recycled stacks; each also bumps a plain global counter, unordered with the thread before
#include <atomic>
#include <thread>

constexpr int kThreads = 12;
std::atomic<int> finished{0};  // relaxed only: tells main a thread is done without creating happens-before
std::atomic<long> results[kThreads];
int deep_threads = 0;  // plain: written by the deep threads, with nothing ordering them

// 32 KiB of locals per level: a deep thread reaches far below a shallow one.
__attribute__((noinline)) long descend(int levels, int id) {
  volatile long local[4096];
  for (int i = 0; i < 4096; i += 64) local[i] = id + i;
  long s = levels > 0 ? descend(levels - 1, id) : 0;
  for (int i = 0; i < 4096; i += 64) s += local[i];
  return s;
}

__attribute__((noinline)) void worker(int id) {
  if (id % 2 == 0) ++deep_threads;  // RACE:first RACE:second
  results[id].store(descend(id % 2 == 0 ? 24 : 1, id), std::memory_order_relaxed);
  finished.fetch_add(1, std::memory_order_relaxed);
}

int main() {
  for (int k = 0; k < kThreads; ++k) {
    std::thread(worker, k).detach();
    while (finished.load(std::memory_order_relaxed) <= k)
      std::this_thread::yield();
  }
  long expected_per_level = 0;
  for (int i = 0; i < 4096; i += 64) expected_per_level += i;
  for (int k = 0; k < kThreads; ++k) {
    const long levels = k % 2 == 0 ? 25 : 2;
    if (results[k].load(std::memory_order_relaxed) != levels * (expected_per_level + 64L * k)) return 1;
  }
  return 0;
}
