// snag-check-suite
// expect: clean
// why: each std::async task returns its partial sum and main adds them after future::get(); nothing shared is written by the tasks
#include <future>
#include <vector>

int main() {
  std::vector<int> values = {1, 2, 3, 4, 5, 6, 7, 8};
  long total = 0;
  auto add_range = [&](int first, int last) {
    long sum = 0;
    for (int i = first; i < last; ++i) sum += values[i];
    return sum;
  };
  auto a = std::async(std::launch::async, add_range, 0, 4);
  auto b = std::async(std::launch::async, add_range, 4, 8);
  total += a.get();
  total += b.get();
  return total == 36 ? 0 : 1;
}
