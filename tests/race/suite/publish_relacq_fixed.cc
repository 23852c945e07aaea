// snag-race-suite
// expect: clean
// why: the payload is published with a release store and the consumer observes the flag with an acquire load
#include <atomic>
#include <thread>

int payload = 0;
int seen = 0;
std::atomic<bool> ready{false};

__attribute__((noinline)) void producer(int v) {
  payload = v;
  ready.store(true, std::memory_order_release);
}

__attribute__((noinline)) void consumer() {
  while (!ready.load(std::memory_order_acquire))
    std::this_thread::yield();
  seen = payload;
}

int main(int argc, char**) {
  std::thread c(consumer), p(producer, argc + 41);
  p.join();
  c.join();
  return seen == argc + 41 ? 0 : 1;
}
