// snag-race-suite
// expect: racy
// why: the predicate is written WITHOUT holding the mutex while the waiter reads it under the mutex; the unlocked write is unordered with the reads
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable cv;
bool ready = false;

__attribute__((noinline)) void signaller() {
  ready = true;  // RACE:first
  cv.notify_one();
}

__attribute__((noinline)) void waiter() {
  std::unique_lock<std::mutex> lk(m);
  // Timed wait only guards against the lost wake-up this bug can cause.
  while (!ready)  // RACE:second
    cv.wait_for(lk, std::chrono::milliseconds(1));
}

int main() {
  std::thread w(waiter), s(signaller);
  s.join();
  w.join();
  return 0;
}
