// snag-check-suite
// expect: clean
// why: stop() releases queue_mutex before it joins the flusher thread, so the flusher can always take the mutex and finish
#include <mutex>
#include <thread>
#include <vector>

std::mutex queue_mutex;
std::vector<int> pending = {1, 2, 3};
int flushed = 0;

void flusher() {
  std::lock_guard<std::mutex> lock(queue_mutex);
  flushed += static_cast<int>(pending.size());
  pending.clear();
}

void stop(std::thread& t) {
  {
    std::lock_guard<std::mutex> lock(queue_mutex);
    pending.push_back(4);
  }
  t.join();
}

int main() {
  std::thread t(flusher);
  stop(t);
  return flushed >= 3 ? 0 : 1;
}
