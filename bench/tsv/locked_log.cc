// Bug-free: four threads format log records and append them to a shared
// std::vector<std::string>, reading its size, always under one mutex (a log
// buffer that is flushed when full). Every container call is a TSVD point;
// none may conflict.
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "work.h"

int main() {
  std::vector<std::string> log;
  std::mutex m;
  uint64_t flushed = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      char line[96];
      for (int i = 0; i < 1000000; ++i) {
        std::snprintf(line, sizeof line, "worker %d request %d result %llu", t, i,
                      static_cast<unsigned long long>(work(i * 4 + t) % 1000));
        std::lock_guard<std::mutex> lock(m);
        if (log.size() >= 4096) {
          flushed += log.size();
          log.clear();
        }
        log.push_back(line);
      }
    });
  }
  for (std::thread &t : threads) t.join();
  return flushed > 0 ? 0 : 1;
}
