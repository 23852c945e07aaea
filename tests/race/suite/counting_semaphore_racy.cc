// snag-race-suite
// expect: racy
// why: the producer releases each item's std::counting_semaphore permit before filling the item; at least the last item is never ordered before the consumer's read
#include <semaphore>
#include <thread>

constexpr int kItems = 4;
std::counting_semaphore<kItems> items(0);
int buf[kItems];
int total = 0;

__attribute__((noinline)) void producer() {
  for (int i = 0; i < kItems; ++i) {
    items.release();
    buf[i] = i + 1;  // RACE:first
  }
}

__attribute__((noinline)) void consumer() {
  for (int i = 0; i < kItems; ++i) items.acquire();
  for (int i = 0; i < kItems; ++i) total += buf[i];  // RACE:second
}

int main() {
  std::thread c(consumer), p(producer);
  p.join();
  c.join();
  return 0;
}
