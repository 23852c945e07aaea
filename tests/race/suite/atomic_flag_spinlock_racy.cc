// snag-race-suite
// expect: racy
// why: a std::atomic_flag spinlock using only RELAXED test_and_set/clear gives mutual exclusion but no happens-before, so the protected updates race
#include <atomic>
#include <thread>

std::atomic_flag busy = ATOMIC_FLAG_INIT;
long total = 0;

__attribute__((noinline)) void spin_lock() {
  while (busy.test_and_set(std::memory_order_relaxed))
    std::this_thread::yield();
}

__attribute__((noinline)) void spin_unlock() {
  busy.clear(std::memory_order_relaxed);
}

__attribute__((noinline)) void work() {
  for (int i = 0; i < 100; ++i) {
    spin_lock();
    total += 1;  // RACE:first RACE:second
    spin_unlock();
  }
}

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  return 0;
}
