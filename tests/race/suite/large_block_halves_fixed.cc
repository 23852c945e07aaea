// snag-race-suite
// expect: clean
// why: two threads each fill and then sum their own half of one 1 MiB heap block, unordered with each other: no element is shared, so nothing is reported (the block is cut into coarse 64 KiB chunks, one owner each, instead of being tracked per granule)
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>

constexpr size_t kWords = (size_t(1) << 20) / sizeof(uint64_t);
uint64_t *words;
uint64_t sums[2];

__attribute__((noinline)) void fill_and_sum(size_t from, size_t to, int slot) {
  for (size_t i = from; i < to; ++i) words[i] = i;
  uint64_t sum = 0;
  for (size_t i = from; i < to; ++i) sum += words[i];
  sums[slot] = sum;
}

int main() {
  words = static_cast<uint64_t *>(std::malloc(kWords * sizeof(uint64_t)));
  std::thread low(fill_and_sum, 0, kWords / 2, 0), high(fill_and_sum, kWords / 2, kWords, 1);
  low.join();
  high.join();
  std::free(words);
  return sums[0] + sums[1] == 0;
}
