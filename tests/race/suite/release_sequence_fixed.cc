// snag-race-suite
// expect: clean
// why: a middle thread bumps the release-stored flag with a relaxed fetch_add; RMWs continue the release sequence, so the consumer's acquire still synchronizes with the producer
#include <atomic>
#include <thread>

int data = 0;
int seen = 0;
std::atomic<int> flag{0};

__attribute__((noinline)) void producer(int v) {
  data = v;
  flag.store(1, std::memory_order_release);
}

__attribute__((noinline)) void middle() {
  while (flag.load(std::memory_order_relaxed) != 1)
    std::this_thread::yield();
  flag.fetch_add(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void consumer() {
  while (flag.load(std::memory_order_acquire) != 2)
    std::this_thread::yield();
  seen = data;
}

int main(int argc, char**) {
  std::thread c(consumer), m(middle), p(producer, argc + 41);
  p.join();
  m.join();
  c.join();
  return seen == argc + 41 ? 0 : 1;
}
