// Atomic operations with each memory order, and fences.
#include <atomic>
#include <cstdio>

std::atomic<int> flag{0};
std::atomic<long> counter{0};

int main() {
  flag.store(1, std::memory_order_release); // MARK:store-release
  int v = flag.load(std::memory_order_acquire); // MARK:load-acquire
  counter.fetch_add(2, std::memory_order_relaxed); // MARK:rmw-relaxed
  int expected = 1;
  bool ok = flag.compare_exchange_strong(expected, 5, std::memory_order_acq_rel, std::memory_order_acquire); // MARK:cas
  std::atomic_thread_fence(std::memory_order_seq_cst); // MARK:fence
  long seq = counter.load(); // MARK:load-seq-cst
  std::printf("%d %d %ld\n", v, ok, seq);
}
