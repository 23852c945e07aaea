// private_buffers: each thread sums its own private heap buffer over and over.
// Nothing is shared, so an adaptive detector should find every access in the
// Exclusive state: the cheapest case there is (issue 14's first workload).
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 2;
constexpr int kWords = 1 << 16;  // 512 KiB per thread
constexpr int kPasses = 3000;

uint64_t sum_private(int seed) {
  std::vector<uint64_t> buffer(kWords);
  for (int i = 0; i < kWords; ++i) buffer[i] = uint64_t(i) * 2654435761u + seed;
  uint64_t sum = 0;
  for (int pass = 0; pass < kPasses; ++pass)
    for (int i = 0; i < kWords; ++i) sum += buffer[i] ^ uint64_t(pass);
  return sum;
}

}  // namespace

int main() {
  uint64_t sums[kThreads] = {};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&sums, t] { sums[t] = sum_private(t); });
  for (auto &th : threads) th.join();
  uint64_t checksum = 0;
  for (uint64_t s : sums) checksum = checksum * 31 + s;
  std::printf("checksum %llx\n", static_cast<unsigned long long>(checksum));
}
