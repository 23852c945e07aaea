// snag-check-suite
// expect: race
// why: the loader releases the std::counting_semaphore before it fills the slot, so the consumer's acquire does not order the fill
#include <semaphore>
#include <thread>

int slots[4];
std::counting_semaphore<4> filled(0);

void loader() {
  for (int i = 0; i < 3; ++i) slots[i] = i + 1;
  filled.release(4);
  slots[3] = 4;  // RACE:first
}

int main() {
  std::thread t(loader);
  int sum = 0;
  for (int i = 0; i < 4; ++i) {
    filled.acquire();
    sum += slots[i];  // RACE:second
  }
  t.join();
  return sum == 6 || sum == 10 ? 0 : 1;
}
