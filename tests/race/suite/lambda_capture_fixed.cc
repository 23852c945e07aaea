// snag-race-suite
// expect: clean
// why: the thread's lambda captures main's local by VALUE (a private copy made before the thread starts), so main and the thread update different objects
#include <thread>

int thread_total = 0;

int main(int argc, char**) {
  int total = argc;
  std::thread t([=]() mutable {
    total += 5;
    thread_total = total;
  });
  total += 1;
  t.join();
  return total == argc + 1 && thread_total == argc + 5 ? 0 : 1;
}
