// snag-race-suite
// expect: racy
// why: the thread's lambda captures main's local by REFERENCE and both main and the thread update it before the join
#include <thread>

int main(int argc, char**) {
  int total = argc;
  std::thread t([&] {
    total += 5;  // RACE:first
  });
  total += 1;  // RACE:second
  t.join();
  return total > 0 ? 0 : 1;
}
