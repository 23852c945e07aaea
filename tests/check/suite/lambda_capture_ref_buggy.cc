// snag-check-suite
// expect: race
// why: the worker lambda captures the local `total` by reference and writes it while main reads it before join()
#include <thread>
#include <vector>

int main() {
  std::vector<int> prices = {3, 5, 7, 11};
  int total = 0;
  std::thread summer([&] {
    int sum = 0;
    for (int p : prices) sum += p;
    total = sum;  // RACE:first
  });
  int preview = total;  // RACE:second
  summer.join();
  return preview >= 0 && total == 26 ? 0 : 1;
}
