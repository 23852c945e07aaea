// huge_block: one 256 MiB heap block, each half filled and then summed by
// one thread. Shadow memory for a block should cost in proportion to what is
// touched, and a block used by one thread per half should stay cheap.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr size_t kBytes = size_t(256) << 20;
constexpr size_t kWords = kBytes / sizeof(uint64_t);

uint64_t fill_and_sum(uint64_t *words, size_t count, uint64_t seed) {
  for (size_t i = 0; i < count; ++i) words[i] = i * 0x9e3779b97f4a7c15ull + seed;
  uint64_t sum = 0;
  for (size_t i = 0; i < count; i += 7) sum += words[i];
  return sum;
}

}  // namespace

int main() {
  auto *words = static_cast<uint64_t *>(std::malloc(kBytes));
  if (!words) return 1;
  uint64_t sums[2] = {};
  std::thread low([&] { sums[0] = fill_and_sum(words, kWords / 2, 1); });
  std::thread high([&] { sums[1] = fill_and_sum(words + kWords / 2, kWords / 2, 2); });
  low.join();
  high.join();
  std::free(words);
  std::printf("checksum %llx\n", static_cast<unsigned long long>(sums[0] * 31 + sums[1]));
}
