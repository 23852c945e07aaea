// snag-race-suite
// expect: clean
// why: each thread writes its value before the std::barrier and reads the other thread's value after the phase completes
#include <barrier>
#include <thread>

std::barrier<> sync_point(2);
int left_val = 0, right_val = 0;
int left_saw = 0, right_saw = 0;

__attribute__((noinline)) void left() {
  left_val = 1;
  sync_point.arrive_and_wait();
  left_saw = right_val;
}

__attribute__((noinline)) void right() {
  right_val = 2;
  sync_point.arrive_and_wait();
  right_saw = left_val;
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return left_saw == 2 && right_saw == 1 ? 0 : 1;
}
