// snag-check-suite
// expect: clean
// why: the producer writes the payload and sets `ready` in the same critical section, before it notifies the consumer
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
    payload = 42;
    ready = true;
  }
  cv.notify_one();
}

int consumer() {
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [] { return ready; });
  return payload;
}

int main() {
  std::thread p(producer);
  int got = consumer();
  p.join();
  return got == 42 ? 0 : 1;
}
