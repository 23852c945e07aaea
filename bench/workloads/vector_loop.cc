// vector_loop: threads fill and scan their own std::vector with push_back,
// operator[] and iterators. The accesses are private; what costs here is
// the instrumentation of library calls an engine may not even use.
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 2;
constexpr int kElements = 1 << 15;
constexpr int kRounds = 600;

uint64_t churn(int seed) {
  uint64_t sum = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<uint32_t> values;
    for (int i = 0; i < kElements; ++i) values.push_back(uint32_t(i * 2654435761u + seed + round));
    for (size_t i = 0; i < values.size(); ++i) sum += values[i] & 0xff;
    for (uint32_t v : values) sum ^= v >> 24;
  }
  return sum;
}

}  // namespace

int main() {
  uint64_t sums[kThreads] = {};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&sums, t] { sums[t] = churn(t); });
  for (auto &th : threads) th.join();
  std::printf("checksum %llx\n", static_cast<unsigned long long>(sums[0] * 31 + sums[1]));
}
