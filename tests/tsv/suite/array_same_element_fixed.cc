// snag-tsv-suite
// expect: clean
// why: the two threads write different elements of the std::array through operator[]; distinct elements may be modified concurrently
#include <array>
#include <latch>
#include <thread>

std::array<int, 8> slots{};
std::latch start(2);

__attribute__((noinline)) void left() {
  start.arrive_and_wait();
  slots[3] = 1;
}

__attribute__((noinline)) void right() {
  start.arrive_and_wait();
  slots[4] = 2;
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return 0;
}
