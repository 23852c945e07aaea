// snag-race-suite
// expect: clean
// why: the flag is a std::atomic<bool> (seq_cst store/load), so setting and polling it is not a data race
#include <atomic>
#include <thread>

std::atomic<bool> ready{false};

__attribute__((noinline)) void setter() {
  ready = true;
}

__attribute__((noinline)) void waiter() {
  while (!ready)
    std::this_thread::yield();
}

int main() {
  std::thread w(waiter), s(setter);
  s.join();
  w.join();
  return 0;
}
