// explore suite: lost_wakeup_notify_unlocked, fixed twin.
// The notifier sets the flag while holding the mutex, so it cannot slip in between the
// waiter's check and its wait.
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
  {
    std::lock_guard<std::mutex> g(m);
    ready.store(true);
  }
  cv.notify_one();
}

int main() {
  std::thread w(waiter);
  std::thread n(notifier);
  w.join();
  n.join();
  return 0;
}
