// spsc_long: a single-producer/single-consumer ring buffer (acquire/release
// indices, plain payload slots) streaming many items, the shape of a
// long-running process: the cost per item must not grow with the run.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>

namespace {

constexpr uint32_t kSlots = 1024;
constexpr uint64_t kItems = 1'000'000;

struct Ring {
  alignas(64) std::atomic<uint64_t> head{0};  // next slot to write
  alignas(64) std::atomic<uint64_t> tail{0};  // next slot to read
  uint64_t slots[kSlots];
};

Ring g_ring;

}  // namespace

int main() {
  uint64_t received = 0;
  std::thread consumer([&received] {
    for (uint64_t n = 0; n < kItems;) {
      uint64_t tail = g_ring.tail.load(std::memory_order_relaxed);
      if (g_ring.head.load(std::memory_order_acquire) == tail) {
        std::this_thread::yield();  // two cores may be shared with other work
        continue;
      }
      received = received * 1099511628211ull + g_ring.slots[tail % kSlots];
      g_ring.tail.store(tail + 1, std::memory_order_release);
      ++n;
    }
  });
  for (uint64_t i = 0; i < kItems; ++i) {
    uint64_t head = g_ring.head.load(std::memory_order_relaxed);
    while (head - g_ring.tail.load(std::memory_order_acquire) == kSlots) std::this_thread::yield();
    g_ring.slots[head % kSlots] = i * 0x9e3779b97f4a7c15ull;
    g_ring.head.store(head + 1, std::memory_order_release);
  }
  consumer.join();
  std::printf("checksum %llx\n", static_cast<unsigned long long>(received));
}
