// snag-check-suite
// expect: race
// why: the checker's positive control: two threads increment a counter without a lock
#include <thread>

int counter = 0;

void work() {
  counter = counter + 1;  // RACE:first
}

int main() {
  std::thread t(work);
  counter = counter + 1;  // RACE:second
  t.join();
  return counter;
}
