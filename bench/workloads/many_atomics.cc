// many_atomics: one flag per index in a std::vector of two million
// std::atomic<long>, each incremented by whichever of two threads owns its
// index, five rounds over the range (the shape of a thread pool's test that
// checks a parallel loop touched every index exactly once). A detector
// that finds a synchronization object by address should take the same time
// per atomic whether a thousand or millions are alive.
#include <atomic>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

namespace {

constexpr size_t kFlags = 2000000;
constexpr int kRounds = 5;

void touch_half(std::vector<std::atomic<long>> &flags, size_t first) {
  for (int r = 0; r < kRounds; ++r)
    for (size_t i = first; i < flags.size(); i += 2) flags[i].fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace

int main() {
  std::vector<std::atomic<long>> flags(kFlags);
  std::thread even(touch_half, std::ref(flags), 0);
  std::thread odd(touch_half, std::ref(flags), 1);
  even.join();
  odd.join();
  long sum = 0;
  for (const std::atomic<long> &f : flags) sum += f.load(std::memory_order_relaxed);
  std::printf("checksum %ld\n", sum);
  return sum == long(kFlags) * kRounds ? 0 : 1;
}
