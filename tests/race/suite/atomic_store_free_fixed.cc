// snag-race-suite
// expect: clean
// why: the worker's store releases and main's wait acquires, so the delete happens after the store (the twin of atomic_store_free_racy); the atomics on the flag do not race with each other
#include <atomic>
#include <thread>

__attribute__((noinline)) void mark_done(std::atomic<int> *done) {
  done->store(1, std::memory_order_release);
}

int main() {
  auto *done = new std::atomic<int>(0);
  std::thread worker(mark_done, done);
  while (done->load(std::memory_order_acquire) == 0) std::this_thread::yield();
  delete done;
  worker.join();
  return 0;
}
