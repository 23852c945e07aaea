// snag-check-suite
// expect: race
// why: only when the FAST_STATS environment variable is set (external input) does main skip the lock the sender holds while updating bytes_out
#include <cstdlib>
#include <mutex>
#include <thread>

std::mutex stats_mutex;
long bytes_out = 0;

void sender() {
  std::lock_guard<std::mutex> lock(stats_mutex);
  bytes_out += 512;  // RACE:first
}

int main() {
  std::thread t(sender);
  const bool fast = std::getenv("FAST_STATS") != nullptr;
  if (fast) {
    bytes_out += 64;  // RACE:second
  } else {
    std::lock_guard<std::mutex> lock(stats_mutex);
    bytes_out += 64;
  }
  t.join();
  return bytes_out <= 576 ? 0 : 1;
}
