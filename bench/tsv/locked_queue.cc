// Bug-free: two producers and two consumers pass work items through a
// std::deque guarded by a mutex and a condition variable (a work queue).
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

int main() {
  std::deque<int> queue;
  std::mutex m;
  std::condition_variable not_empty;
  constexpr int kItems = 500000;
  long sum = 0;
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
    threads.emplace_back([&] {
      long mine = 0;
      for (int i = 0; i < kItems; ++i) {
        std::unique_lock<std::mutex> lock(m);
        not_empty.wait(lock, [&] { return !queue.empty(); });
        mine += queue.front();
        queue.pop_front();
      }
      std::lock_guard<std::mutex> lock(m);
      sum += mine;
    });
  }
  for (std::thread &t : threads) t.join();
  return sum > 0 ? 0 : 1;
}
