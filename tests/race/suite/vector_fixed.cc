// snag-race-suite
// expect: clean
// why: push_back and size() on the shared std::vector are both done under the same mutex
#include <mutex>
#include <thread>
#include <vector>

std::vector<int> v;
std::mutex m;
std::size_t seen_size = 0;

__attribute__((noinline)) void appender() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m);
    v.push_back(i);
  }
}

__attribute__((noinline)) void observer() {
  std::lock_guard<std::mutex> g(m);
  seen_size = v.size();
}

int main() {
  std::thread a(appender), o(observer);
  a.join();
  o.join();
  return v.size() == 100 ? 0 : 1;
}
