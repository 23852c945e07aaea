// One bug: the same locked work queue as locked_queue, but each consumer
// also records a statistic in a std::map without the lock, once in a while
// (the kind of side path code review misses). The hot path is correct.
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

int main() {
  std::deque<int> queue;
  std::map<int, long> stats;  // not protected: the bug
  std::mutex m;
  std::condition_variable not_empty;
  constexpr int kItems = 500000;
  std::vector<std::thread> threads;
  for (int p = 0; p < 2; ++p) {
    threads.emplace_back([&] {
      for (int i = 0; i < kItems; ++i) {
        std::lock_guard<std::mutex> lock(m);
        queue.push_back(i);
        not_empty.notify_one();
      }
    });
  }
  for (int c = 0; c < 2; ++c) {
    threads.emplace_back([&, c] {
      for (int i = 0; i < kItems; ++i) {
        int item;
        {
          std::unique_lock<std::mutex> lock(m);
          not_empty.wait(lock, [&] { return !queue.empty(); });
          item = queue.front();
          queue.pop_front();
        }
        if (i % 100000 == 0) stats[c * 10 + i / 100000] = item;  // unlocked insert
      }
    });
  }
  for (std::thread &t : threads) t.join();
  return stats.empty() ? 1 : 0;
}
