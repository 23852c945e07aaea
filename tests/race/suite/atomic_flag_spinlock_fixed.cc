// snag-race-suite
// expect: clean
// why: a std::atomic_flag spinlock with acquire test_and_set and release clear orders the protected updates
#include <atomic>
#include <thread>

std::atomic_flag busy = ATOMIC_FLAG_INIT;
long total = 0;

__attribute__((noinline)) void spin_lock() {
  while (busy.test_and_set(std::memory_order_acquire))
    std::this_thread::yield();
}

__attribute__((noinline)) void spin_unlock() {
  busy.clear(std::memory_order_release);
}

__attribute__((noinline)) void work() {
  for (int i = 0; i < 100; ++i) {
    spin_lock();
    total += 1;
    spin_unlock();
  }
}

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  return total == 200 ? 0 : 1;
}
