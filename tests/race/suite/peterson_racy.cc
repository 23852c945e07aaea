// snag-race-suite
// expect: racy
// why: Peterson's lock built from RELAXED atomics: no happens-before between critical sections (and not even mutual exclusion), so the protected counter races
#include <atomic>
#include <thread>

std::atomic<bool> interested[2];
std::atomic<int> turn{0};
long counter = 0;

__attribute__((noinline)) void lock(int me) {
  int other = 1 - me;
  interested[me].store(true, std::memory_order_relaxed);
  turn.store(other, std::memory_order_relaxed);
  while (interested[other].load(std::memory_order_relaxed) && turn.load(std::memory_order_relaxed) == other)
    std::this_thread::yield();
}

__attribute__((noinline)) void unlock(int me) {
  interested[me].store(false, std::memory_order_relaxed);
}

__attribute__((noinline)) void work(int me) {
  for (int i = 0; i < 100; ++i) {
    lock(me);
    counter++;  // RACE:first RACE:second
    unlock(me);
  }
}

int main() {
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return 0;
}
