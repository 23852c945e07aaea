// explore suite: deadlock_three_cycle, fixed twin.
// Every stage takes its two locks in index order (lower index first), so no cycle of
// waiting threads can form.
// explore-budget: 5000
#include <algorithm>
#include <mutex>
#include <thread>

std::mutex locks[3];
int transfers[3];  // transfers[i] guarded by locks[i]

void stage(int i) {
  int next = (i + 1) % 3;
  std::lock_guard<std::mutex> first(locks[std::min(i, next)]);
  std::lock_guard<std::mutex> second(locks[std::max(i, next)]);
  ++transfers[i];
  ++transfers[next];
}

int main() {
  std::thread a(stage, 0);
  std::thread b(stage, 1);
  std::thread c(stage, 2);
  a.join();
  b.join();
  c.join();
  return 0;
}
