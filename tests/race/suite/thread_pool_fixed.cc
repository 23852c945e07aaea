// snag-race-suite
// expect: clean
// why: main waits until the pool is idle (task finished, under the pool mutex) before reading the result the task wrote
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <semaphore>
#include <thread>
#include <vector>

class Pool {
 public:
  explicit Pool(int n) {
    for (int i = 0; i < n; ++i) workers_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> g(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  void submit(std::function<void()> f) {
    {
      std::lock_guard<std::mutex> g(m_);
      q_.push_back(std::move(f));
    }
    cv_.notify_one();
  }
  // Waits until every submitted task has been taken off the queue.
  void wait_dequeued() {
    std::unique_lock<std::mutex> lk(m_);
    state_cv_.wait(lk, [this] { return q_.empty(); });
  }
  // Waits until every submitted task has finished running.
  void wait_idle() {
    std::unique_lock<std::mutex> lk(m_);
    state_cv_.wait(lk, [this] { return q_.empty() && active_ == 0; });
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> f;
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [this] { return stop_ || !q_.empty(); });
        if (q_.empty()) return;
        f = std::move(q_.front());
        q_.pop_front();
        ++active_;
      }
      state_cv_.notify_all();
      f();
      {
        std::lock_guard<std::mutex> g(m_);
        --active_;
      }
      state_cv_.notify_all();
    }
  }
  std::mutex m_;
  std::condition_variable cv_, state_cv_;
  std::deque<std::function<void()>> q_;
  int active_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

long result = 0;
std::binary_semaphore let_task_finish(0);  // the task lingers until main lets it finish

__attribute__((noinline)) long compute(long n) {
  long s = 0;
  for (long i = 1; i <= n; ++i) s += i * i;
  return s;
}

int main(int argc, char**) {
  Pool pool(2);
  long n = argc + 9;
  pool.submit([n] {
    result = compute(n);
    let_task_finish.acquire();
  });
  let_task_finish.release();
  pool.wait_idle();
  long r = result;
  return r == compute(n) ? 0 : 1;
}
