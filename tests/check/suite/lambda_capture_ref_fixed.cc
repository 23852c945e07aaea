// snag-check-suite
// expect: clean
// why: main reads the captured-by-reference `total` only after join(), which orders it after the worker's write
#include <thread>
#include <vector>

int main() {
  std::vector<int> prices = {3, 5, 7, 11};
  int total = 0;
  std::thread summer([&] {
    int sum = 0;
    for (int p : prices) sum += p;
    total = sum;
  });
  summer.join();
  int preview = total;
  return preview >= 0 && total == 26 ? 0 : 1;
}
