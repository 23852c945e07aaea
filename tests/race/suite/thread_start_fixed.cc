// snag-race-suite
// expect: clean
// why: main writes the config BEFORE starting the thread that reads it; thread creation is a happens-before edge
#include <thread>

int config = 0;
int used = 0;

__attribute__((noinline)) void worker() {
  used = config * 2;
}

int main(int argc, char**) {
  config = argc + 6;
  std::thread t(worker);
  t.join();
  return used == (argc + 6) * 2 ? 0 : 1;
}
