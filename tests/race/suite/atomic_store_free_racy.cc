// snag-race-suite
// expect: racy
// why: the worker's relaxed atomic store and main's delete of the same int race: main waits for the stored value with relaxed loads, which order nothing, so the free may overlap the store
#include <atomic>
#include <thread>

__attribute__((noinline)) void mark_done(std::atomic<int> *done) {
  done->store(1, std::memory_order_relaxed);  // RACE:first
}

int main() {
  auto *done = new std::atomic<int>(0);
  std::thread worker(mark_done, done);
  while (done->load(std::memory_order_relaxed) == 0) std::this_thread::yield();
  delete done;  // RACE:second
  worker.join();
  return 0;
}
