// explore suite: bounded_buffer_if_wait, fixed twin.
// Consumers wait in a `while` loop, so they re-check the buffer after every wake-up.
// explore-budget: 5000
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>

constexpr int kCapacity = 1;

std::mutex m;
std::condition_variable not_empty;
std::condition_variable not_full;
int items[kCapacity];  // guarded by m
int count = 0;         // guarded by m
int taken_sum = 0;     // guarded by m

void producer() {
  for (int i = 1; i <= 2; ++i) {
    std::unique_lock<std::mutex> lk(m);
    while (count == kCapacity)
      not_full.wait(lk);
    items[count++] = i;
    not_empty.notify_one();
  }
}

void consumer() {
  std::unique_lock<std::mutex> lk(m);
  while (count == 0)
    not_empty.wait(lk);
  assert(count > 0);
  taken_sum += items[--count];
  not_full.notify_one();
}

int main() {
  std::thread c1(consumer);
  std::thread c2(consumer);
  std::thread p(producer);
  c1.join();
  c2.join();
  p.join();
  return 0;
}
