// snag-tsv-suite
// expect: clean
// why: the std::unordered_map's insert() and find() are both made under the same mutex
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

std::unordered_map<std::string, int> cache;
std::mutex cache_mutex;
std::latch start(2);
int alpha = 0;

__attribute__((noinline)) void fill() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(cache_mutex);
  cache.insert({"gamma", 3});
}

__attribute__((noinline)) void lookup() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto it = cache.find("alpha");
  alpha = it->second;
}

int main() {
  cache.reserve(64);
  cache.insert({"alpha", 1});
  cache.insert({"beta", 2});
  std::thread w(fill), r(lookup);
  w.join();
  r.join();
  return 0;
}
