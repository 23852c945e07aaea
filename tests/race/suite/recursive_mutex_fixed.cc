// snag-race-suite
// expect: clean
// why: the counter is updated after the INNER unlock of a std::recursive_mutex locked twice, so the mutex is still held
#include <mutex>
#include <thread>

std::recursive_mutex rm;
long counter = 0;

__attribute__((noinline)) void work() {
  for (int i = 0; i < 50; ++i) {
    rm.lock();
    rm.lock();
    rm.unlock();
    counter++;
    rm.unlock();
  }
}

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  return counter == 100 ? 0 : 1;
}
