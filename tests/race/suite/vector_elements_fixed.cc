// snag-race-suite
// expect: clean
// why: two threads write different (adjacent) elements of a pre-sized std::vector; the vector itself is only read
#include <thread>
#include <vector>

std::vector<int> cells(16);

__attribute__((noinline)) void fill(int index, int value) {
  cells[index] = value;
}

int main() {
  std::thread a(fill, 5, 1), b(fill, 6, 2);
  a.join();
  b.join();
  return cells[5] == 1 && cells[6] == 2 ? 0 : 1;
}
