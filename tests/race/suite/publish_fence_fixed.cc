// snag-race-suite
// expect: clean
// why: relaxed flag accesses made synchronizing by atomic_thread_fence(release) before the store and fence(acquire) after the load
#include <atomic>
#include <thread>

int payload = 0;
int seen = 0;
std::atomic<bool> ready{false};

__attribute__((noinline)) void producer(int v) {
  payload = v;
  std::atomic_thread_fence(std::memory_order_release);
  ready.store(true, std::memory_order_relaxed);
}

__attribute__((noinline)) void consumer() {
  while (!ready.load(std::memory_order_relaxed))
    std::this_thread::yield();
  std::atomic_thread_fence(std::memory_order_acquire);
  seen = payload;
}

int main(int argc, char**) {
  std::thread c(consumer), p(producer, argc + 41);
  p.join();
  c.join();
  return seen == argc + 41 ? 0 : 1;
}
