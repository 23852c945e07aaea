// snag-tsv-suite
// expect: violation
// object: std::array<int, 8>
// why: two threads write the same element of a std::array through operator[] with no lock
#include <array>
#include <latch>
#include <thread>

std::array<int, 8> slots{};
std::latch start(2);

__attribute__((noinline)) void left() {
  start.arrive_and_wait();
  slots[3] = 1;  // TSV:first
}

__attribute__((noinline)) void right() {
  start.arrive_and_wait();
  slots[3] = 2;  // TSV:second
}

int main() {
  std::thread l(left), r(right);
  l.join();
  r.join();
  return 0;
}
