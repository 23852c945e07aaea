// The condition variable a detached thread used is destroyed by the exit-time
// destructors: libc's exit runs libstdc++'s ~condition_variable, code snag did
// not compile, so the destroying side has no instrumented frame at all. The
// relaxed flag orders nothing, so the race is there in every run.
#include <atomic>
#include <condition_variable>
#include <thread>

std::condition_variable cv;
std::atomic<bool> used{false};

int main() {
  std::thread([] {
    cv.notify_one();  // MARK:notify
    used.store(true, std::memory_order_relaxed);
    for (;;) std::this_thread::yield();
  }).detach();
  while (!used.load(std::memory_order_relaxed)) std::this_thread::yield();
  return 0;
}
