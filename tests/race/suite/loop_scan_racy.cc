// snag-race-suite
// expect: racy
// why: one thread publishes its buffer and then scans it in a tight loop; another thread writes an element before the scan (a relaxed flag, which orders nothing, makes that the order every run), so the scan's reads meet the write (snag asks once per loop whether a scan changes anything; the answer must not hide the race)
#include <atomic>
#include <cstdint>
#include <thread>

constexpr int kWords = 4096;
std::atomic<uint64_t *> published{nullptr};
std::atomic<bool> written{false};
uint64_t total;

__attribute__((noinline)) void scanner() {
  uint64_t *buffer = new uint64_t[kWords];
  for (int i = 0; i < kWords; ++i) buffer[i] = i;
  published.store(buffer, std::memory_order_release);
  while (!written.load(std::memory_order_relaxed)) {
  }
  uint64_t sum = 0;
  for (int pass = 0; pass < 200; ++pass)
    for (int i = 0; i < kWords; ++i) sum += buffer[i] ^ pass;  // RACE:first
  total = sum;
}

__attribute__((noinline)) void writer() {
  uint64_t *buffer;
  while (!(buffer = published.load(std::memory_order_acquire))) {
  }
  buffer[kWords / 2] = 7;  // RACE:second
  written.store(true, std::memory_order_relaxed);
}

int main() {
  std::thread a(scanner), b(writer);
  a.join();
  b.join();
  delete[] published.load();
  return 0;
}
