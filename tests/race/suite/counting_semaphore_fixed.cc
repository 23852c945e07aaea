// snag-race-suite
// expect: clean
// why: the producer fills each item before releasing its std::counting_semaphore permit; the consumer reads after acquiring all permits
#include <semaphore>
#include <thread>

constexpr int kItems = 4;
std::counting_semaphore<kItems> items(0);
int buf[kItems];
int total = 0;

__attribute__((noinline)) void producer() {
  for (int i = 0; i < kItems; ++i) {
    buf[i] = i + 1;
    items.release();
  }
}

__attribute__((noinline)) void consumer() {
  for (int i = 0; i < kItems; ++i) items.acquire();
  for (int i = 0; i < kItems; ++i) total += buf[i];
}

int main() {
  std::thread c(consumer), p(producer);
  p.join();
  c.join();
  return total == 10 ? 0 : 1;
}
