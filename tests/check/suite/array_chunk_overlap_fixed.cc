// snag-check-suite
// expect: clean
// why: the chunks are [0, kHalf-1] and [kHalf, kN-1], so each element of grid is written by one worker only
#include <thread>

constexpr int kN = 16;
constexpr int kHalf = kN / 2;
double grid[kN];

void relax(int first, int last) {  // updates grid[first..last]
  for (int i = first; i <= last; ++i)
    grid[i] = 0.5 * i;
}

int main() {
  std::thread left(relax, 0, kHalf - 1);
  std::thread right(relax, kHalf, kN - 1);
  left.join();
  right.join();
  return grid[kN - 1] == 7.5 ? 0 : 1;
}
