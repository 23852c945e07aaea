// snag-race-suite
// expect: racy
// why: the loop_range_unread race for real: the consumer copies one slot past the published count, the slot the producer writes after the copy (a relaxed flag, which orders nothing, makes that the order every run)
#include <atomic>
#include <thread>

constexpr unsigned kSlots = 32;
struct Block {
  int slots[kSlots];
};
Block *block;
std::atomic<unsigned> published{0};
std::atomic<bool> copied{false};
int out[kSlots];

__attribute__((noinline)) void copy_out(const Block *b, unsigned from, unsigned to) {
  for (unsigned i = from; i != to; ++i) out[i] = b->slots[i & (kSlots - 1)];  // RACE:first
}

__attribute__((noinline)) void producer() {
  for (unsigned i = 0; i < kSlots / 2; ++i) block->slots[i] = int(i);
  published.store(kSlots / 2, std::memory_order_release);
  while (!copied.load(std::memory_order_relaxed)) {
  }
  block->slots[kSlots / 2] = 16;  // RACE:second
}

__attribute__((noinline)) void consumer() {
  unsigned upto;
  while ((upto = published.load(std::memory_order_acquire)) == 0) {
  }
  copy_out(block, 0, upto + 1);
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
