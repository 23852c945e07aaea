// snag-race-suite
// expect: racy
// why: the counter is updated after the std::recursive_mutex has been released as many times as it was locked, i.e. with no lock held
#include <mutex>
#include <thread>

std::recursive_mutex rm;
long counter = 0;

__attribute__((noinline)) void work() {
  for (int i = 0; i < 50; ++i) {
    rm.lock();
    rm.lock();
    rm.unlock();
    rm.unlock();
    counter++;  // RACE:first RACE:second
  }
}

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  return 0;
}
