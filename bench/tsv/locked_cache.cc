// Bug-free: a std::unordered_map<std::string, int> cache read under a shared
// lock and filled under an exclusive one, by four threads (a memo table).
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

int main() {
  std::unordered_map<std::string, int> cache;
  std::shared_mutex m;
  std::vector<std::string> keys;
  for (int i = 0; i < 2000; ++i) keys.push_back("key-" + std::to_string(i));
  long hits = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      long mine = 0;
      for (int i = 0; i < 700000; ++i) {
        const std::string &key = keys[(i * 7 + t * 13) % keys.size()];
        {
          std::shared_lock<std::shared_mutex> read(m);
          auto it = cache.find(key);
          if (it != cache.end()) {
            mine += it->second;
            continue;
          }
        }
        std::unique_lock<std::shared_mutex> write(m);
        cache.emplace(key, static_cast<int>(key.size()));
      }
      std::unique_lock<std::shared_mutex> write(m);
      hits += mine;
    });
  }
  for (std::thread &t : threads) t.join();
  return hits > 0 ? 0 : 1;
}
