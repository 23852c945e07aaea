// snag-race-suite
// expect: racy
// why: two threads each fill their own half of one 1 MiB heap block, and the second one then also writes the first element of the other half (a relaxed flag, which orders nothing, makes that the order every run). The block is cut into coarse 64 KiB chunks when the second thread first touches it; the first chunk inherits the first thread's write, so the race on that element is still found
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>

constexpr size_t kWords = (size_t(1) << 20) / sizeof(uint64_t);
uint64_t *words;
std::atomic<bool> low_filled{false};

__attribute__((noinline)) void fill_low() {
  for (size_t i = 0; i < kWords / 2; ++i) words[i] = i;  // RACE:first
  low_filled.store(true, std::memory_order_relaxed);
}

__attribute__((noinline)) void fill_high() {
  for (size_t i = kWords / 2; i < kWords; ++i) words[i] = i;
  while (!low_filled.load(std::memory_order_relaxed)) {
  }
  words[0] = 7;  // RACE:second
}

int main() {
  words = static_cast<uint64_t *>(std::malloc(kWords * sizeof(uint64_t)));
  std::thread low(fill_low), high(fill_high);
  low.join();
  high.join();
  std::free(words);
  return 0;
}
