// snag-check-suite
// expect: deadlock
// why: stop() joins the flusher thread while holding queue_mutex, and the flusher needs queue_mutex to finish its last flush
#include <mutex>
#include <thread>
#include <vector>

std::mutex queue_mutex;
std::vector<int> pending = {1, 2, 3};
int flushed = 0;

void flusher() {
  std::lock_guard<std::mutex> lock(queue_mutex);  // DEADLOCK
  flushed += static_cast<int>(pending.size());
  pending.clear();
}

void stop(std::thread& t) {
  std::lock_guard<std::mutex> lock(queue_mutex);  // DEADLOCK
  pending.push_back(4);
  t.join();  // DEADLOCK
}

int main() {
  std::thread t(flusher);
  stop(t);
  return flushed >= 3 ? 0 : 1;
}
