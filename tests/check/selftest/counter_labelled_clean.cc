// snag-check-suite
// expect: clean
// why: the checker's self-test: the race of counter_marked.cc labelled clean must fail
#include <thread>

int counter = 0;

void work() {
  counter = counter + 1;
}

int main() {
  std::thread t(work);
  counter = counter + 1;
  t.join();
  return counter;
}
