// explore suite: lost_wakeup_semaphore, buggy twin.
// release() notifies only when the count goes from 0 to 1, so when both waiters are asleep
// and the second release runs before the first woken waiter takes its unit, the second
// waiter is never woken although a unit is left (two waiters and two posters: 4 threads).
// explore-budget: 2000
#include <condition_variable>
#include <mutex>
#include <thread>

class Semaphore {
 public:
  void release() {
    std::lock_guard<std::mutex> g(m_);
    if (count_++ == 0)
      cv_.notify_one();
  }
  void acquire() {
    std::unique_lock<std::mutex> lk(m_);  // BUG: deadlock
    while (count_ == 0)
      cv_.wait(lk);  // BUG: deadlock
    --count_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int count_ = 0;
};

Semaphore sem;

void consume() { sem.acquire(); }
void produce() { sem.release(); }

int main() {
  std::thread w1(consume);
  std::thread w2(consume);
  std::thread p1(produce);
  std::thread p2(produce);
  w1.join();  // BUG: deadlock
  w2.join();  // BUG: deadlock
  p1.join();  // BUG: deadlock
  p2.join();  // BUG: deadlock
  return 0;
}
