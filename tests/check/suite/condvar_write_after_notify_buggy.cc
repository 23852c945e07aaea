// snag-check-suite
// expect: race
// why: the producer sets `ready` under the lock but writes the payload after unlocking, so the woken consumer's read of it races
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

std::mutex m;
std::condition_variable cv;
bool ready = false;
int payload = 0;

void producer() {
  {
    std::lock_guard<std::mutex> lock(m);
    ready = true;
  }
  cv.notify_one();
  payload = 42;  // RACE:first
}

int consumer() {
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [] { return ready; });
  return payload;  // RACE:second
}

int main() {
  std::thread p(producer);
  int got = consumer();
  p.join();
  return got == 0 || got == 42 ? 0 : 1;
}
