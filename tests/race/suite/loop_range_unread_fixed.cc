// snag-race-suite
// expect: clean
// why: a consumer copies out only the slots a producer published (release/acquire on a count) with a ring-style masked index; the producer writes the next slot after that copy (a relaxed flag, which orders nothing, makes that the order every run), a slot the consumer never read. snag's loop-range question once covered every offset the mask allows (the whole block), and its yes on the coarse block stretched the consumer's read over all of it, so the write raised a false race (seen in concurrentqueue's unit tests, race_bench section 89); the ring question asks about the slots the loop reaches only (section 91)
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
  for (unsigned i = from; i != to; ++i) out[i] = b->slots[i & (kSlots - 1)];
}

__attribute__((noinline)) void producer() {
  for (unsigned i = 0; i < kSlots / 2; ++i) block->slots[i] = int(i);
  published.store(kSlots / 2, std::memory_order_release);
  while (!copied.load(std::memory_order_relaxed)) {
  }
  block->slots[kSlots / 2] = 16;
}

__attribute__((noinline)) void consumer() {
  unsigned upto;
  while ((upto = published.load(std::memory_order_acquire)) == 0) {
  }
  copy_out(block, 0, upto);
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
