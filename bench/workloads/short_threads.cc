// short_threads: 20,000 threads created and joined one after another, each
// touching a little shared state under a mutex. Runtime state of a finished
// thread must be released: memory should stay flat, not grow with history.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>

namespace {

constexpr int kThreads = 20000;
std::mutex g_lock;
uint64_t g_total = 0;

}  // namespace

int main() {
  for (int i = 0; i < kThreads; ++i) {
    std::thread worker([i] {
      uint64_t local[16];
      for (int k = 0; k < 16; ++k) local[k] = uint64_t(i) * 1315423911u + k;
      uint64_t sum = 0;
      for (uint64_t v : local) sum ^= v;
      std::lock_guard<std::mutex> hold(g_lock);
      g_total = g_total * 31 + sum;
    });
    worker.join();
  }
  std::printf("checksum %llx\n", static_cast<unsigned long long>(g_total));
}
