// explore suite: deadlock_wait_holding_lock, fixed twin.
// The consumer releases state_mutex before it waits for the queue.
// explore-budget: 2000
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex state_mutex;
std::mutex queue_mutex;
std::condition_variable queue_cv;
int consumers = 0;   // guarded by state_mutex
int produced = 0;    // guarded by state_mutex
bool ready = false;  // guarded by queue_mutex

void consumer() {
  {
    std::lock_guard<std::mutex> s(state_mutex);
    ++consumers;
  }
  std::unique_lock<std::mutex> q(queue_mutex);
  while (!ready)
    queue_cv.wait(q);
}

void producer() {
  std::lock_guard<std::mutex> s(state_mutex);
  ++produced;
  {
    std::lock_guard<std::mutex> q(queue_mutex);
    ready = true;
  }
  queue_cv.notify_one();
}

int main() {
  std::thread c(consumer);
  std::thread p(producer);
  c.join();
  p.join();
  return 0;
}
