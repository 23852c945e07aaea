// explore suite: long_run_livelock, buggy twin.
// Two workers count themselves in with a separate load and store; when one is preempted
// between them a count is lost, and main spin-waits for two arrivals forever while nothing
// changes: a livelock, which the step limit must still report.
// explore-budget: 20
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> arrived{0};
std::atomic<long> work{0};

void arrive() {
  int seen = arrived.load();
  arrived.store(seen + 1);
}

int main() {
  std::thread a(arrive);
  std::thread b(arrive);
  while (arrived.load() != 2) {  // BUG: hang
  }
  for (int i = 0; i < 250000; ++i) work.fetch_add(1, std::memory_order_relaxed);
  a.join();
  b.join();
  assert(work.load() == 250000);
  return 0;
}
