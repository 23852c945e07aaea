// main returns while a thread is still blocked: the program must still exit
// cleanly and the runtime must send its exit event.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

// Leaked on purpose: glibc's pthread_cond_destroy waits for waiters, so a
// global condition variable's destructor would hang at exit.
std::mutex &m = *new std::mutex;
std::condition_variable &never = *new std::condition_variable;

int main() {
  std::mutex started_m;
  std::condition_variable started_cv;
  bool started = false;
  std::thread([&] {
    std::unique_lock<std::mutex> l(m);
    {
      std::lock_guard<std::mutex> g(started_m);
      started = true;
    }
    started_cv.notify_one();
    never.wait(l, [] { return false; });
  }).detach();
  std::unique_lock<std::mutex> l(started_m);
  started_cv.wait(l, [&] { return started; });
  std::puts("leaving with a thread blocked");
  return 3;
}
