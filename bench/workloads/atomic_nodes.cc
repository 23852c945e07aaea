// atomic_nodes: four threads push and pop heap nodes holding atomic fields
// on a shared lock-free stack (a Treiber stack with a version tag), the shape
// of a lock-free queue's own test program. Nodes are recycled through the
// allocator all the time, so per-address state must be released at free.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 60000;
constexpr int kBatch = 8;

struct Node {
  std::atomic<Node *> next{nullptr};
  std::atomic<uint64_t> value{0};
  std::atomic<uint32_t> visits{0};
};

// One lock (a spin flag) around the stack keeps the example free of ABA while
// every field stays atomic, as in the lock-free queue test that blew up.
std::atomic<bool> g_busy{false};
Node *g_top = nullptr;

void push(Node *n) {
  while (g_busy.exchange(true, std::memory_order_acquire)) {}
  n->next.store(g_top, std::memory_order_relaxed);
  g_top = n;
  g_busy.store(false, std::memory_order_release);
}

Node *pop() {
  while (g_busy.exchange(true, std::memory_order_acquire)) {}
  Node *n = g_top;
  if (n) g_top = n->next.load(std::memory_order_relaxed);
  g_busy.store(false, std::memory_order_release);
  return n;
}

uint64_t worker(int id) {
  uint64_t sum = 0;
  for (int r = 0; r < kRounds; ++r) {
    for (int b = 0; b < kBatch; ++b) {
      Node *n = new Node;
      n->value.store(uint64_t(id) << 32 | uint64_t(r * kBatch + b), std::memory_order_relaxed);
      push(n);
    }
    for (int b = 0; b < kBatch; ++b) {
      Node *n = pop();
      if (!n) continue;
      n->visits.fetch_add(1, std::memory_order_relaxed);
      sum += n->value.load(std::memory_order_relaxed) & 0xffff;
      delete n;
    }
  }
  return sum;
}

}  // namespace

int main() {
  std::vector<std::thread> threads;
  std::atomic<uint64_t> total{0};
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([t, &total] { total += worker(t); });
  for (auto &th : threads) th.join();
  // Every node contributes its low 16 bits once, whoever pops it, so the
  // total does not depend on the interleaving.
  while (Node *n = pop()) {
    total += n->value.load(std::memory_order_relaxed) & 0xffff;
    delete n;
  }
  std::printf("checksum %llx\n", static_cast<unsigned long long>(total.load()));
}
