// snag-check-suite
// expect: clean
// why: the loader fills every slot before it releases the std::counting_semaphore that the consumer acquires
#include <semaphore>
#include <thread>

int slots[4];
std::counting_semaphore<4> filled(0);

void loader() {
  for (int i = 0; i < 3; ++i) slots[i] = i + 1;
  slots[3] = 4;
  filled.release(4);
}

int main() {
  std::thread t(loader);
  int sum = 0;
  for (int i = 0; i < 4; ++i) {
    filled.acquire();
    sum += slots[i];
  }
  t.join();
  return sum == 10 ? 0 : 1;
}
