// One bug: the work queue of locked_queue, but each consumer also records a
// statistic in a std::map without the lock, now and then (the kind of side
// path a review misses). The hot path is correct.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "work.h"

int main() {
  std::deque<uint64_t> queue;
  std::map<int, uint64_t> stats;  // not protected: the bug
  std::mutex m;
  std::condition_variable not_empty;
  constexpr int kItems = 1200000;
  std::vector<std::thread> threads;
  for (int p = 0; p < 2; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kItems; ++i) {
        uint64_t item = work(i * 2 + p);
        std::lock_guard<std::mutex> lock(m);
        queue.push_back(item);
        not_empty.notify_one();
      }
    });
  }
  for (int c = 0; c < 2; ++c) {
    threads.emplace_back([&, c] {
      for (int i = 0; i < kItems; ++i) {
        uint64_t item;
        {
          std::unique_lock<std::mutex> lock(m);
          not_empty.wait(lock, [&] { return !queue.empty(); });
          item = queue.front();
          queue.pop_front();
        }
        uint64_t result = work(item);
        if (i % 200000 == 0) stats[c * 100 + i / 200000] = result;  // unlocked insert
      }
    });
  }
  for (std::thread &t : threads) t.join();
  return stats.empty() ? 1 : 0;
}
