// explore suite: exit_status_sum, fixed twin.
// Each thread adds its partial sum with one fetch_add.
// explore-budget: 2000
#include <atomic>
#include <cstdlib>
#include <thread>

std::atomic<int> total{0};

void add(int part) {
  total.fetch_add(part);
}

int main() {
  std::thread a(add, 3);
  std::thread b(add, 4);
  a.join();
  b.join();
  if (total.load() != 7)
    std::exit(1);
  return 0;
}
