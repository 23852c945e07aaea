// snag-check-suite
// expect: race
// why: the chunk bounds are inclusive on both ends, so the two workers both write grid[kHalf], the element where their chunks meet
#include <thread>

constexpr int kN = 16;
constexpr int kHalf = kN / 2;
double grid[kN];

void relax(int first, int last) {  // updates grid[first..last]
  for (int i = first; i <= last; ++i)
    grid[i] = 0.5 * i;  // RACE:first RACE:second
}

int main() {
  std::thread left(relax, 0, kHalf);
  std::thread right(relax, kHalf, kN - 1);
  left.join();
  right.join();
  return grid[kN - 1] == 7.5 ? 0 : 1;
}
