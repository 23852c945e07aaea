// Bug-free: two producers and two consumers pass work items through a
// std::deque guarded by a mutex and a condition variable (a work queue).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "work.h"

int main() {
  std::deque<uint64_t> queue;
  std::mutex m;
  std::condition_variable not_empty;
  constexpr int kItems = 1200000;
  uint64_t sum = 0;
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
    threads.emplace_back([&] {
      uint64_t mine = 0;
      for (int i = 0; i < kItems; ++i) {
        uint64_t item;
        {
          std::unique_lock<std::mutex> lock(m);
          not_empty.wait(lock, [&] { return !queue.empty(); });
          item = queue.front();
          queue.pop_front();
        }
        mine += work(item);
      }
      std::lock_guard<std::mutex> lock(m);
      sum += mine;
    });
  }
  for (std::thread &t : threads) t.join();
  return sum > 0 ? 0 : 1;
}
