// explore suite: deadlock_wait_holding_lock, buggy twin.
// The consumer keeps state_mutex locked while it waits on the queue's condition variable,
// and the producer needs state_mutex before it can set the flag, so whenever the consumer
// gets state_mutex first (no preemption needed) both wait forever.
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
  std::lock_guard<std::mutex> s(state_mutex);  // BUG: deadlock
  ++consumers;
  std::unique_lock<std::mutex> q(queue_mutex);  // BUG: deadlock
  while (!ready)
    queue_cv.wait(q);  // BUG: deadlock
}

void producer() {
  std::lock_guard<std::mutex> s(state_mutex);  // BUG: deadlock
  ++produced;
  {
    std::lock_guard<std::mutex> q(queue_mutex);  // BUG: deadlock
    ready = true;
  }
  queue_cv.notify_one();
}

int main() {
  std::thread c(consumer);
  std::thread p(producer);
  c.join();  // BUG: deadlock
  p.join();  // BUG: deadlock
  return 0;
}
