// snag-race-suite
// expect: racy
// why: a plain bool is set by one thread and polled by another without synchronization
#include <thread>

bool ready = false;

__attribute__((noinline)) void setter() {
  ready = true;  // RACE:first
}

__attribute__((noinline)) void waiter() {
  while (!ready)  // RACE:second
    std::this_thread::yield();
}

int main() {
  std::thread w(waiter), s(setter);
  s.join();
  w.join();
  return 0;
}
