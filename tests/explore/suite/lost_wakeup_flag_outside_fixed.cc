// explore suite: lost_wakeup_flag_outside, fixed twin.
// The waiter checks the ready flag under the lock, in a loop around the wait.
// explore-budget: 2000
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable cv;
std::atomic<bool> ready{false};

void waiter() {
  std::unique_lock<std::mutex> lk(m);
  while (!ready.load())
    cv.wait(lk);
}

void notifier() {
  std::lock_guard<std::mutex> g(m);
  ready.store(true);
  cv.notify_one();
}

int main() {
  std::thread w(waiter);
  std::thread n(notifier);
  w.join();
  n.join();
  return 0;
}
