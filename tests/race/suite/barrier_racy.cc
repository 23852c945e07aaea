// snag-race-suite
// expect: racy
// why: one thread arrives at the std::barrier WITHOUT waiting and only then writes its value, so the other thread's post-barrier read is unordered with it
#include <barrier>
#include <thread>

std::barrier<> sync_point(2);
int left_val = 0, right_val = 0;
int right_saw = 0;

__attribute__((noinline)) void left() {
  auto token = sync_point.arrive();
  (void)token;
  left_val = 1;  // RACE:first
}

__attribute__((noinline)) void right() {
  right_val = 2;
  sync_point.arrive_and_wait();
  right_saw = left_val;  // RACE:second
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return 0;
}
