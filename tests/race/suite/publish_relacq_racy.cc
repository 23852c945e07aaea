// snag-race-suite
// expect: racy
// why: the payload is published with a release store but the consumer's flag load is only relaxed, so there is no synchronizes-with edge
#include <atomic>
#include <thread>

int payload = 0;
int seen = 0;
std::atomic<bool> ready{false};

__attribute__((noinline)) void producer(int v) {
  payload = v;  // RACE:first
  ready.store(true, std::memory_order_release);
}

__attribute__((noinline)) void consumer() {
  while (!ready.load(std::memory_order_relaxed))
    std::this_thread::yield();
  seen = payload;  // RACE:second
}

int main(int argc, char**) {
  std::thread c(consumer), p(producer, argc + 41);
  p.join();
  c.join();
  return 0;
}
