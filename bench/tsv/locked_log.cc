// Bug-free: four threads append records to a shared std::vector<std::string>
// and read its size, always under one mutex (a log buffer). Every call is a
// TSVD point; none may conflict.
#include <mutex>
#include <string>
#include <thread>
#include <vector>

int main() {
  std::vector<std::string> log;
  std::mutex m;
  long total = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::string line = "worker " + std::to_string(t) + " did some work";
      for (int i = 0; i < 600000; ++i) {
        std::lock_guard<std::mutex> lock(m);
        if (log.size() >= 4096) log.clear();
        log.push_back(line);
        total += static_cast<long>(log.back().size());
      }
    });
  }
  for (std::thread &t : threads) t.join();
  return total > 0 ? 0 : 1;
}
