// A thousand threads, all alive at once.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

int main() {
  constexpr int kThreads = 1000;
  std::atomic<int> arrived{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&] {
      arrived.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
    });
  while (arrived.load() < kThreads) std::this_thread::yield();
  go.store(true);
  for (auto &t : threads) t.join();
  std::printf("%d threads\n", arrived.load());
}
