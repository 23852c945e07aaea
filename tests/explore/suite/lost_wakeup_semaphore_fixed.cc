// explore suite: lost_wakeup_semaphore, fixed twin.
// release() notifies on every increment, so each unit released wakes a waiter.
// explore-budget: 2000
#include <condition_variable>
#include <mutex>
#include <thread>

class Semaphore {
 public:
  void release() {
    std::lock_guard<std::mutex> g(m_);
    count_++;
    cv_.notify_one();
  }
  void acquire() {
    std::unique_lock<std::mutex> lk(m_);
    while (count_ == 0)
      cv_.wait(lk);
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
  w1.join();
  w2.join();
  p1.join();
  p2.join();
  return 0;
}
