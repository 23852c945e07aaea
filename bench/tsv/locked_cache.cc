// Bug-free: a memo table (std::unordered_map<int, uint64_t>) read under a
// shared lock and filled under an exclusive one by four threads; each
// request uses the cached value for more work.
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "work.h"

int main() {
  std::unordered_map<int, uint64_t> cache;
  std::shared_mutex m;
  uint64_t total = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      uint64_t mine = 0;
      for (int i = 0; i < 1500000; ++i) {
        int key = (i * 7 + t * 13) % 5000;
        uint64_t value = 0;
        bool hit = false;
        {
          std::shared_lock<std::shared_mutex> read(m);
          auto it = cache.find(key);
          if (it != cache.end()) {
            value = it->second;
            hit = true;
          }
        }
        if (!hit) {
          value = work(key, 256);
          std::unique_lock<std::shared_mutex> write(m);
          cache.emplace(key, value);
        }
        mine += work(value ^ i);
      }
      std::unique_lock<std::shared_mutex> write(m);
      total += mine;
    });
  }
  for (std::thread &t : threads) t.join();
  return total > 0 ? 0 : 1;
}
