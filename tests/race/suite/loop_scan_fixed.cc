// snag-race-suite
// expect: clean
// why: the writer waits until the scanning loop is over (release/acquire on a flag) before it writes an element
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
    for (int i = 0; i < kWords; ++i) sum += buffer[i] ^ pass;
  total = sum;
  scanned.store(true, std::memory_order_release);
}

__attribute__((noinline)) void writer() {
  uint64_t *buffer;
  while (!(buffer = published.load(std::memory_order_acquire))) {
  }
  while (!scanned.load(std::memory_order_acquire)) {
  }
  buffer[kWords / 2] = 7;
}

int main() {
  std::thread a(scanner), b(writer);
  a.join();
  b.join();
  delete[] published.load();
  return 0;
}
