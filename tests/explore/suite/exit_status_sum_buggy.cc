// explore suite: exit_status_sum, buggy twin.
// Each thread adds its partial sum to the total with a separate load and store, so when
// one thread is preempted between them the other's part is lost and main exits with
// status 1.
// explore-budget: 2000
#include <atomic>
#include <cstdlib>
#include <thread>

std::atomic<int> total{0};

void add(int part) {
  int t = total.load();
  total.store(t + part);
}

int main() {
  std::thread a(add, 3);
  std::thread b(add, 4);
  a.join();
  b.join();
  if (total.load() != 7)
    std::exit(1);  // BUG: exit-status
  return 0;
}
