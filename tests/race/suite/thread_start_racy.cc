// snag-race-suite
// expect: racy
// why: main writes the config AFTER starting the thread that reads it; thread creation only orders earlier writes
#include <thread>

int config = 0;
int used = 0;

__attribute__((noinline)) void worker() {
  used = config * 2;  // RACE:second
}

int main(int argc, char**) {
  std::thread t(worker);
  config = argc + 6;  // RACE:first
  t.join();
  return 0;
}
