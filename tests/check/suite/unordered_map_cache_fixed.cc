// snag-check-suite
// expect: clean
// why: the memo cache's contains() takes the same lock as get(), which inserts into the std::unordered_map
#include <mutex>
#include <thread>
#include <unordered_map>

class FibCache {
 public:
  long get(int n) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = memo_.find(n);
    if (it != memo_.end()) return it->second;
    long v = n < 2 ? n : slow_fib(n);
    memo_.emplace(n, v);
    return v;
  }
  bool contains(int n) const {
    std::lock_guard<std::mutex> lock(m_);
    return memo_.count(n) != 0;
  }

 private:
  static long slow_fib(int n) { return n < 2 ? n : slow_fib(n - 1) + slow_fib(n - 2); }
  mutable std::mutex m_;
  std::unordered_map<int, long> memo_;
};

FibCache cache;
bool warm = false;

int main() {
  std::thread filler([] { cache.get(12); });
  warm = cache.contains(12);
  filler.join();
  return cache.get(12) == 144 ? 0 : 1;
}
