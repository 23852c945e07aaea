// snag-race-suite
// expect: clean
// why: the predicate is written under the mutex and the waiter checks it in a loop under the same mutex
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable cv;
bool ready = false;

__attribute__((noinline)) void signaller() {
  {
    std::lock_guard<std::mutex> g(m);
    ready = true;
  }
  cv.notify_one();
}

__attribute__((noinline)) void waiter() {
  std::unique_lock<std::mutex> lk(m);
  while (!ready)
    cv.wait_for(lk, std::chrono::milliseconds(1));
}

int main() {
  std::thread w(waiter), s(signaller);
  s.join();
  w.join();
  return 0;
}
