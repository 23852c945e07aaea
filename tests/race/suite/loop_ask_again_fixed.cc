// snag-race-suite
// expect: clean
// why: one thread fills a heap buffer and hands it to another through a release/acquire flag; the other sums it in a tight loop. The loop's range question says no before the loop (the buffer is still the first thread's), the first element's hook takes the buffer over, and the question asked once more says yes: the rest of the loop skips its hooks, and nothing is reported
#include <atomic>
#include <cstdint>
#include <thread>

constexpr int kWords = 512;
std::atomic<uint64_t *> published{nullptr};
uint64_t total;

__attribute__((noinline)) void writer() {
  uint64_t *buffer = new uint64_t[kWords];
  for (int i = 0; i < kWords; ++i) buffer[i] = i;
  published.store(buffer, std::memory_order_release);
}

// A function of its own, so that the loop has a block to ask from.
__attribute__((noinline)) uint64_t sum_words(const uint64_t *buffer) {
  uint64_t sum = 0;
  for (int i = 0; i < kWords; ++i) sum += buffer[i];
  return sum;
}

__attribute__((noinline)) void reader() {
  uint64_t *buffer;
  while (!(buffer = published.load(std::memory_order_acquire))) {
  }
  total = sum_words(buffer);
  delete[] buffer;
}

int main() {
  std::thread a(writer), b(reader);
  a.join();
  b.join();
  return 0;
}
