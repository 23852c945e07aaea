// snag-race-suite
// expect: clean
// why: coarse_second_field_racy's twin: the producer waits for the consumer's copy with an acquire load of a release store, so its write of slot 16 comes after the consumer's read of it
#include <atomic>
#include <thread>

struct Block {
  int slots[32];
};
Block *block;
std::atomic<bool> published{false};
std::atomic<bool> copied{false};
int out0, out16;

__attribute__((noinline)) void producer() {
  for (int i = 0; i < 16; ++i) block->slots[i] = i;
  published.store(true, std::memory_order_release);
  while (!copied.load(std::memory_order_acquire)) {
  }
  block->slots[16] = 16;
}

__attribute__((noinline)) void consumer() {
  while (!published.load(std::memory_order_acquire)) {
  }
  out0 = block->slots[0];
  out16 = block->slots[16];
  copied.store(true, std::memory_order_release);
}

int main() {
  block = new Block;
  std::thread p(producer), c(consumer);
  p.join();
  c.join();
  delete block;
  return 0;
}
