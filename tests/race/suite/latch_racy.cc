// snag-race-suite
// expect: racy
// why: worker b counts down the std::latch BEFORE writing its slot, so main's read after latch.wait() is unordered with that write
#include <latch>
#include <thread>

std::latch done(2);
int slot_a = 0, slot_b = 0;

__attribute__((noinline)) void worker_a() {
  slot_a = 1;
  done.count_down();
}

__attribute__((noinline)) void worker_b() {
  done.count_down();
  slot_b = 2;  // RACE:first
}

int main() {
  std::thread a(worker_a), b(worker_b);
  done.wait();
  int sum = slot_a + slot_b;  // RACE:second
  a.join();
  b.join();
  return sum >= 1 ? 0 : 1;
}
