// snag-check-suite
// expect: race
// why: two std::async tasks add their partial sums into the same captured-by-reference `total` with no lock
#include <future>
#include <vector>

int main() {
  std::vector<int> values = {1, 2, 3, 4, 5, 6, 7, 8};
  long total = 0;
  auto add_range = [&](int first, int last) {
    long sum = 0;
    for (int i = first; i < last; ++i) sum += values[i];
    total += sum;  // RACE:first RACE:second
  };
  auto a = std::async(std::launch::async, add_range, 0, 4);
  auto b = std::async(std::launch::async, add_range, 4, 8);
  a.get();
  b.get();
  return total == 36 ? 0 : 1;
}
