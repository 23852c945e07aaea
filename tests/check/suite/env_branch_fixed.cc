// snag-check-suite
// expect: clean
// why: both branches on the FAST_STATS environment variable take the lock the sender holds while updating bytes_out
#include <cstdlib>
#include <mutex>
#include <thread>

std::mutex stats_mutex;
long bytes_out = 0;

void sender() {
  std::lock_guard<std::mutex> lock(stats_mutex);
  bytes_out += 512;
}

int main() {
  std::thread t(sender);
  const bool fast = std::getenv("FAST_STATS") != nullptr;
  if (fast) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    bytes_out += 64;
  } else {
    std::lock_guard<std::mutex> lock(stats_mutex);
    bytes_out += 64;
  }
  t.join();
  return bytes_out == 576 ? 0 : 1;
}
