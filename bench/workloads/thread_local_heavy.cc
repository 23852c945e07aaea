// thread_local_heavy: work dominated by data private to each thread.
// Each thread fills and sorts its own std::vector, counts into its own
// std::unordered_map and std::map, keeps scratch in `thread_local` buffers
// and large stack arrays, and only publishes one result slot at the end
// (plus a relaxed atomic progress counter, the only shared write).
// A detector that keeps per-location state for every access pays here for
// memory nobody else ever touches.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 12;
constexpr int kVec = 40000;

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

thread_local std::vector<uint32_t> tl_scratch;
thread_local uint64_t tl_calls = 0;

std::atomic<uint64_t> g_progress{0};

// Stack-heavy helper: a 16 KiB local array per call.
uint64_t stack_work(uint64_t seed) {
  uint32_t buf[4096];
  for (int i = 0; i < 4096; ++i) buf[i] = static_cast<uint32_t>(mix(seed + i));
  for (int pass = 0; pass < 3; ++pass)
    for (int i = 1; i < 4096; ++i) buf[i] ^= buf[i - 1] >> 3;
  uint64_t h = 0;
  for (int i = 0; i < 4096; i += 7) h += buf[i];
  ++tl_calls;
  return h;
}

struct alignas(64) Slot {
  uint64_t value = 0;
};

void worker(int t, Slot& out) {
  std::vector<uint64_t> v;
  std::unordered_map<uint32_t, uint32_t> counts;
  std::map<uint32_t, uint64_t> ordered;
  uint64_t acc = 0;
  for (int r = 0; r < kRounds; ++r) {
    v.clear();
    uint64_t s = mix(t * 7919 + r);
    for (int i = 0; i < kVec; ++i) v.push_back(s = mix(s));
    std::sort(v.begin(), v.end());
    tl_scratch.resize(kVec / 4);
    for (int i = 0; i < kVec / 4; ++i) tl_scratch[i] = static_cast<uint32_t>(v[i * 4] >> 45);
    for (uint32_t x : tl_scratch) ++counts[x & 0x3fff];
    for (int i = 0; i < 1500; ++i) ordered[static_cast<uint32_t>(v[i * 13] >> 50)] += v[i];
    for (int i = 0; i < 8; ++i) acc += stack_work(v[i * 1000] + r);
    acc = mix(acc + v[kVec / 2]);
    g_progress.fetch_add(1, std::memory_order_relaxed);
  }
  for (const auto& [k, c] : counts) acc += mix(k) * c;
  for (const auto& [k, x] : ordered) acc = mix(acc ^ (k + x));
  out.value = acc ^ tl_calls;
}

}  // namespace

int main() {
  std::vector<Slot> slots(kThreads);
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t) th.emplace_back(worker, t, std::ref(slots[t]));
  for (auto& t : th) t.join();
  uint64_t h = g_progress.load();
  for (const auto& s : slots) h = mix(h + s.value);
  std::printf("checksum %016llx rounds=%llu\n", (unsigned long long)h,
              (unsigned long long)g_progress.load());
  return 0;
}
