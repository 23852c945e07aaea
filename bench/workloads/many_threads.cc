// many_threads: 64 threads (32x the cores of a small machine) each doing
// moderate private work, bumping shared atomic counters as they go and
// occasionally updating mutex-protected shared state (a std::map histogram
// and a running digest). Exercises per-thread runtime state, thread
// creation/join, contended atomics and a hot lock with many waiters.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 64;
constexpr int kIters = 14000;
constexpr int kInner = 48;

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

std::atomic<uint64_t> g_ops{0};
std::atomic<uint64_t> g_sum{0};
std::atomic<uint64_t> g_max{0};

struct Shared {
  std::mutex m;
  std::map<uint32_t, uint64_t> histogram;
  uint64_t digest = 0;  // commutative fold (sum of mixes)
  uint64_t updates = 0;
} g_shared;

void worker(int t) {
  std::vector<uint64_t> local(kInner);  // heap: instrumented like real data
  for (int k = 0; k < kInner; ++k) local[k] = mix(t * 1000 + k);
  uint64_t acc = 0;
  for (int i = 0; i < kIters; ++i) {
    for (int k = 0; k < kInner; ++k) {
      local[k] = mix(local[k] + local[(k + 7) % kInner] + i);
      acc += local[k] >> 40;
    }
    if (i % 16 == 0) {
      g_ops.fetch_add(1, std::memory_order_relaxed);
      g_sum.fetch_add(local[i % kInner] & 0xffff, std::memory_order_relaxed);
      uint64_t v = local[0] >> 20, cur = g_max.load(std::memory_order_relaxed);
      while (v > cur && !g_max.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
      }
    }
    if (i % 200 == 0) {
      std::lock_guard<std::mutex> g(g_shared.m);
      g_shared.histogram[static_cast<uint32_t>(acc % 257)] += 1;
      g_shared.digest += mix(acc);
      ++g_shared.updates;
    }
  }
  std::lock_guard<std::mutex> g(g_shared.m);
  g_shared.digest += mix(acc ^ t);
}

}  // namespace

int main() {
  std::vector<std::thread> th;
  th.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) th.emplace_back(worker, t);
  for (auto& t : th) t.join();
  uint64_t h = g_shared.digest;
  for (const auto& [k, v] : g_shared.histogram) h = mix(h + k * 1000003ULL + v);
  h ^= mix(g_ops.load() + 3 * g_sum.load() + 7 * g_max.load());
  std::printf("checksum %016llx ops=%llu updates=%llu buckets=%zu\n",
              (unsigned long long)h, (unsigned long long)g_ops.load(),
              (unsigned long long)g_shared.updates, g_shared.histogram.size());
  return 0;
}
