// lock_hash_map: a concurrent hash map with one std::mutex per bucket.
// Threads run a mixed stream of add (insert-or-accumulate) and lookup
// operations on a shared key space, so buckets are contended and every
// bucket's entries are touched by several threads under its lock.
// The final contents are independent of the interleaving (adds commute), and
// only lookups whose outcome is fixed (keys this thread added itself) count.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kOpsPerThread = 350000;
constexpr uint64_t kKeySpace = 1 << 17;
constexpr size_t kBuckets = 4096;

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

class ConcurrentMap {
 public:
  ConcurrentMap() : buckets_(new Bucket[kBuckets]) {}

  void add(uint64_t key, uint64_t delta) {
    Bucket& b = bucket(key);
    std::lock_guard<std::mutex> g(b.m);
    for (auto& kv : b.items)
      if (kv.first == key) {
        kv.second += delta;
        return;
      }
    b.items.emplace_back(key, delta);
  }

  bool lookup(uint64_t key, uint64_t* value) {
    Bucket& b = bucket(key);
    std::lock_guard<std::mutex> g(b.m);
    for (const auto& kv : b.items)
      if (kv.first == key) {
        *value = kv.second;
        return true;
      }
    return false;
  }

  uint64_t digest() {
    uint64_t h = 0, n = 0;
    for (size_t i = 0; i < kBuckets; ++i) {
      std::lock_guard<std::mutex> g(buckets_[i].m);
      for (const auto& kv : buckets_[i].items) {
        h += mix(kv.first * 31 + kv.second);
        ++n;
      }
    }
    return h ^ (n << 40);
  }

 private:
  struct Bucket {
    std::mutex m;
    std::vector<std::pair<uint64_t, uint64_t>> items;
  };
  Bucket& bucket(uint64_t key) { return buckets_[mix(key) % kBuckets]; }
  std::unique_ptr<Bucket[]> buckets_;
};

struct alignas(64) Stats {
  uint64_t own_hits = 0;
  uint64_t other_lookups = 0;
};

void worker(int t, ConcurrentMap& map, Stats& st) {
  std::vector<bool> mine(kKeySpace, false);
  uint64_t s = 0x9e3779b97f4a7c15ULL * (t + 1);
  uint64_t noise = 0;
  for (int i = 0; i < kOpsPerThread; ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t r = s >> 24;
    const uint64_t key = r % kKeySpace;
    if ((r >> 20) % 10 < 4) {  // 40% add
      map.add(key, key % 97 + 1);
      mine[key] = true;
    } else {  // 60% lookup
      uint64_t v = 0;
      const bool found = map.lookup(key, &v);
      if (mine[key]) {
        if (!found) std::fprintf(stderr, "lost key %llu\n", (unsigned long long)key);
        ++st.own_hits;
      } else {
        noise += found ? v : 1;  // depends on timing, kept out of the checksum
        ++st.other_lookups;
      }
    }
  }
  if (noise == 42) std::fprintf(stderr, "\n");  // keep `noise` alive
}

}  // namespace

int main() {
  ConcurrentMap map;
  std::vector<Stats> stats(kThreads);
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t)
    th.emplace_back(worker, t, std::ref(map), std::ref(stats[t]));
  for (auto& t : th) t.join();
  uint64_t own = 0, other = 0;
  for (const auto& s : stats) {
    own += s.own_hits;
    other += s.other_lookups;
  }
  std::printf("checksum %016llx own_hits=%llu other_lookups=%llu\n",
              (unsigned long long)(map.digest() ^ mix(own) ^ mix(other)),
              (unsigned long long)own, (unsigned long long)other);
  return 0;
}
