// atomic_queue: lock-free code built only from std::atomic.
// Two producers and two consumers share a bounded MPMC ring buffer
// (Dmitry Vyukov's design: per-cell sequence numbers, CAS on the head and
// tail). Payloads are plain (non-atomic) structs published through the
// cells' release/acquire sequence numbers, so a detector must model atomic
// release/acquire ordering to see that the payload accesses are ordered.
// Consumers also bump a shared seq_cst counter and a fetch_xor digest.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

namespace {

constexpr int kProducers = 2;
constexpr int kConsumers = 2;
constexpr int kPerProducer = 1000000;
constexpr size_t kCells = 1024;  // power of two

struct Payload {
  uint64_t id;
  uint64_t a, b, c;
};

class MpmcQueue {
 public:
  MpmcQueue() : cells_(new Cell[kCells]) {
    for (size_t i = 0; i < kCells; ++i) cells_[i].seq.store(i, std::memory_order_relaxed);
  }
  bool try_push(const Payload& p) {
    size_t pos = tail_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& c = cells_[pos & (kCells - 1)];
      const size_t seq = c.seq.load(std::memory_order_acquire);
      const intptr_t dif = static_cast<intptr_t>(seq) - static_cast<intptr_t>(pos);
      if (dif == 0) {
        if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          c.data = p;
          c.seq.store(pos + 1, std::memory_order_release);
          return true;
        }
      } else if (dif < 0) {
        return false;
      } else {
        pos = tail_.load(std::memory_order_relaxed);
      }
    }
  }
  bool try_pop(Payload* out) {
    size_t pos = head_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& c = cells_[pos & (kCells - 1)];
      const size_t seq = c.seq.load(std::memory_order_acquire);
      const intptr_t dif = static_cast<intptr_t>(seq) - static_cast<intptr_t>(pos + 1);
      if (dif == 0) {
        if (head_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          *out = c.data;
          c.seq.store(pos + kCells, std::memory_order_release);
          return true;
        }
      } else if (dif < 0) {
        return false;
      } else {
        pos = head_.load(std::memory_order_relaxed);
      }
    }
  }

 private:
  struct alignas(64) Cell {
    std::atomic<size_t> seq;
    Payload data;
  };
  std::unique_ptr<Cell[]> cells_;
  alignas(64) std::atomic<size_t> tail_{0};
  alignas(64) std::atomic<size_t> head_{0};
};

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

std::atomic<uint64_t> g_consumed{0};
std::atomic<uint64_t> g_xor{0};

}  // namespace

int main() {
  MpmcQueue q;
  std::vector<std::thread> th;
  for (int p = 0; p < kProducers; ++p)
    th.emplace_back([&q, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        const uint64_t id = static_cast<uint64_t>(p) * kPerProducer + i;
        Payload pl{id, mix(id), mix(id + 1), mix(id + 2)};
        while (!q.try_push(pl)) std::this_thread::yield();
      }
    });
  const uint64_t total = static_cast<uint64_t>(kProducers) * kPerProducer;
  std::vector<uint64_t> sums(kConsumers);
  for (int c = 0; c < kConsumers; ++c)
    th.emplace_back([&q, &sums, c, total] {
      uint64_t sum = 0;
      Payload pl;
      for (;;) {
        if (q.try_pop(&pl)) {
          sum += pl.a ^ (pl.b + pl.c) ^ pl.id;
          g_xor.fetch_xor(mix(pl.id * 3 + pl.c));
          g_consumed.fetch_add(1);
        } else if (g_consumed.load() == total) {
          break;
        } else {
          std::this_thread::yield();
        }
      }
      sums[c] = sum;
    });
  for (auto& t : th) t.join();
  uint64_t sum = 0;
  for (auto s : sums) sum += s;
  std::printf("checksum %016llx consumed=%llu\n",
              (unsigned long long)(sum ^ g_xor.load()),
              (unsigned long long)g_consumed.load());
  return 0;
}
