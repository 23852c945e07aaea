// explore suite: lost_wakeup_flag_outside, buggy twin.
// The waiter checks the ready flag before taking the lock and then waits without
// re-checking it, so when the notifier sets the flag and notifies while the waiter is
// between its check and its wait (one preemption) the notification is lost for good.
// explore-budget: 2000
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable cv;
std::atomic<bool> ready{false};

void waiter() {
  if (!ready.load()) {
    std::unique_lock<std::mutex> lk(m);  // BUG: deadlock
    cv.wait(lk);  // BUG: deadlock
  }
}

void notifier() {
  std::lock_guard<std::mutex> g(m);
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
