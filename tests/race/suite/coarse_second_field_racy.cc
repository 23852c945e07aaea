// snag-race-suite
// expect: racy
// why: a consumer reads two fields of a heap block it now owns (slot 0, then slot 16) and the producer writes slot 16 afterwards, unordered (a relaxed flag orders nothing, and makes that the order every run). snag misses it today: a coarse block remembers only its owner's first access of an epoch (slot 0), the inlined fast path answers the second read without recording it, and when the producer's write refines the block, slot 16 inherits nothing (a known miss, tests/race/CMakeLists.txt)
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
  while (!copied.load(std::memory_order_relaxed)) {
  }
  block->slots[16] = 16;  // RACE:second
}

__attribute__((noinline)) void consumer() {
  while (!published.load(std::memory_order_acquire)) {
  }
  out0 = block->slots[0];
  out16 = block->slots[16];  // RACE:first
  copied.store(true, std::memory_order_relaxed);
}

int main() {
  block = new Block;
  std::thread p(producer), c(consumer);
  p.join();
  c.join();
  delete block;
  return 0;
}
