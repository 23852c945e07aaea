// explore suite: lost_wakeup_notify_unlocked, buggy twin.
// The notifier sets the flag and notifies without holding the mutex, so when it runs
// while the waiter is between its check of the flag and its wait (one preemption) the
// waiter sleeps forever.
// explore-budget: 2000
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable cv;
std::atomic<bool> ready{false};

void waiter() {
  std::unique_lock<std::mutex> lk(m);  // BUG: deadlock
  while (!ready.load())
    cv.wait(lk);  // BUG: deadlock
}

void notifier() {
  ready.store(true);
  cv.notify_one();
}

int main() {
  std::thread w(waiter);
  std::thread n(notifier);
  w.join();  // BUG: deadlock
  n.join();  // BUG: deadlock
  return 0;
}
