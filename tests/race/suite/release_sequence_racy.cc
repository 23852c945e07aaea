// snag-race-suite
// expect: racy
// why: a middle thread overwrites the release-stored flag with a plain relaxed STORE (not an RMW), which ends the release sequence, so the consumer's acquire does not synchronize with the producer
#include <atomic>
#include <thread>

int data = 0;
int seen = 0;
std::atomic<int> flag{0};
std::atomic<int> middle_done{0};

__attribute__((noinline)) void producer(int v) {
  data = v;  // RACE:first
  flag.store(1, std::memory_order_release);
}

__attribute__((noinline)) void middle() {
  while (flag.load(std::memory_order_relaxed) != 1)
    std::this_thread::yield();
  flag.store(2, std::memory_order_relaxed);
  middle_done.store(1, std::memory_order_relaxed);
}

// The consumer never acquires the value 1: an acquire load that read the
// producer's own store would synchronize with it and order the data.
__attribute__((noinline)) void consumer() {
  while (middle_done.load(std::memory_order_relaxed) != 1)
    std::this_thread::yield();
  if (flag.load(std::memory_order_acquire) == 2)
    seen = data;  // RACE:second
}

int main(int argc, char**) {
  std::thread c(consumer), m(middle), p(producer, argc + 41);
  p.join();
  m.join();
  c.join();
  return 0;
}
