// snag-race-suite
// expect: racy
// why: two threads write the same element of a pre-sized std::vector through operator[]
#include <thread>
#include <vector>

std::vector<int> cells(16);

__attribute__((noinline)) void fill(int index, int value) {
  cells[index] = value;  // RACE:first RACE:second
}

int main() {
  std::thread a(fill, 5, 1), b(fill, 5, 2);
  a.join();
  b.join();
  return 0;
}
