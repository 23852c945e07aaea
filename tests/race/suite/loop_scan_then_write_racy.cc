// snag-race-suite
// expect: racy
// why: the loop_scan race in the other order: the write comes after the whole scan (a relaxed flag, which orders nothing, makes that the order every run). The buffer is one coarse heap block: the scan's loop-range question makes the block remember the scan's read over the whole range, and when the write turns the block fine-grained, the written granule inherits that read (it was missed while the block remembered only the scan's first read and refined granules started fresh)
#include <atomic>
#include <cstdint>
#include <thread>

constexpr int kWords = 4096;
std::atomic<uint64_t *> published{nullptr};
std::atomic<bool> scanned{false};
uint64_t total;

__attribute__((noinline)) void scanner() {
  uint64_t *buffer = new uint64_t[kWords];
  for (int i = 0; i < kWords; ++i) buffer[i] = i;
  published.store(buffer, std::memory_order_release);
  uint64_t sum = 0;
  for (int pass = 0; pass < 200; ++pass)
    for (int i = 0; i < kWords; ++i) sum += buffer[i] ^ pass;  // RACE:first
  total = sum;
  scanned.store(true, std::memory_order_relaxed);
}

__attribute__((noinline)) void writer() {
  uint64_t *buffer;
  while (!(buffer = published.load(std::memory_order_acquire))) {
  }
  while (!scanned.load(std::memory_order_relaxed)) {
  }
  buffer[kWords / 2] = 7;  // RACE:second
}

int main() {
  std::thread a(scanner), b(writer);
  a.join();
  b.join();
  delete[] published.load();
  return 0;
}
