// snag-race-suite
// expect: clean
// why: both workers write their slot before counting down the std::latch; main reads after latch.wait()
#include <latch>
#include <thread>

std::latch done(2);
int slot_a = 0, slot_b = 0;

__attribute__((noinline)) void worker_a() {
  slot_a = 1;
  done.count_down();
}

__attribute__((noinline)) void worker_b() {
  slot_b = 2;
  done.count_down();
}

int main() {
  std::thread a(worker_a), b(worker_b);
  done.wait();
  int sum = slot_a + slot_b;
  a.join();
  b.join();
  return sum == 3 ? 0 : 1;
}
