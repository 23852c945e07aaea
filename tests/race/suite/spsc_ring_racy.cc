// snag-race-suite
// expect: racy
// why: lock-free SPSC ring buffer whose producer publishes the tail index with a RELAXED store, so slot writes are not ordered before the consumer's slot reads
#include <atomic>
#include <thread>

constexpr unsigned kSize = 64;
constexpr int kCount = 500;
int ring[kSize];
std::atomic<unsigned> head{0};  // next slot to read; written by the consumer
std::atomic<unsigned> tail{0};  // next slot to write; written by the producer
long consumed_sum = 0;

__attribute__((noinline)) void producer() {
  for (int i = 0; i < kCount; ++i) {
    unsigned t = tail.load(std::memory_order_relaxed);
    while (t - head.load(std::memory_order_acquire) == kSize)
      std::this_thread::yield();
    ring[t % kSize] = i;  // RACE:first
    tail.store(t + 1, std::memory_order_relaxed);
  }
}

__attribute__((noinline)) void consumer() {
  long sum = 0;
  for (int i = 0; i < kCount; ++i) {
    unsigned h = head.load(std::memory_order_relaxed);
    while (tail.load(std::memory_order_acquire) == h)
      std::this_thread::yield();
    sum += ring[h % kSize];  // RACE:second
    head.store(h + 1, std::memory_order_release);
  }
  consumed_sum = sum;
}

int main() {
  std::thread c(consumer), p(producer);
  p.join();
  c.join();
  return 0;
}
