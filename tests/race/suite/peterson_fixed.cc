// snag-race-suite
// expect: clean
// why: Peterson's lock built from seq_cst atomics gives mutual exclusion and happens-before between critical sections
#include <atomic>
#include <thread>

std::atomic<bool> interested[2];
std::atomic<int> turn{0};
long counter = 0;

__attribute__((noinline)) void lock(int me) {
  int other = 1 - me;
  interested[me].store(true, std::memory_order_seq_cst);
  turn.store(other, std::memory_order_seq_cst);
  while (interested[other].load(std::memory_order_seq_cst) && turn.load(std::memory_order_seq_cst) == other)
    std::this_thread::yield();
}

__attribute__((noinline)) void unlock(int me) {
  interested[me].store(false, std::memory_order_seq_cst);
}

__attribute__((noinline)) void work(int me) {
  for (int i = 0; i < 100; ++i) {
    lock(me);
    counter++;
    unlock(me);
  }
}

int main() {
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return counter == 200 ? 0 : 1;
}
