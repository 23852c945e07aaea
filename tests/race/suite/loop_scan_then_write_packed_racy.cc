// snag-race-suite
// expect: racy
// why: loop_scan_then_write_racy with a buffer of 512 bytes, whose record keeps packed histories (65 B to 1 KiB) that the loop-range question reads slot by slot: the scan's question must still grow the scan's remembered read to the whole range when it covers only the first access, so that the written granule inherits it when the write refines the block (a question that took the packed slot as covering the range already would leave it at the first 8 bytes, and the race would be missed)
#include <atomic>
#include <cstdint>
#include <thread>

constexpr int kWords = 64;
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
