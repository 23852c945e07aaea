// snag-check-suite
// expect: race
// why: the memo cache inserts into its std::unordered_map under the lock but contains() looks it up without the lock
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
    memo_.emplace(n, v);  // RACE:first
    return v;
  }
  bool contains(int n) const { return memo_.count(n) != 0; }  // RACE:second

 private:
  static long slow_fib(int n) { return n < 2 ? n : slow_fib(n - 1) + slow_fib(n - 2); }
  std::mutex m_;
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
