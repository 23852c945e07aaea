// snag-race-suite
// expect: clean
// why: the same program without the ignore-sync annotations: both increments hold the mutex
#include <mutex>
#include <thread>

std::mutex m;
int counter = 0;

__attribute__((noinline)) void worker() {
  m.lock();
  counter++;
  m.unlock();
}

int main() {
  std::thread t(worker);
  m.lock();
  counter++;
  m.unlock();
  t.join();
  return 0;
}
