// snag-check-suite
// expect: race
// why: the checker's self-test: the race of counter_marked.cc with its markers moved to other lines must fail
#include <thread>

int counter = 0;

void work() {  // RACE:first
  counter = counter + 1;
}

int main() {
  std::thread t(work);
  counter = counter + 1;
  t.join();  // RACE:second
  return counter;
}
