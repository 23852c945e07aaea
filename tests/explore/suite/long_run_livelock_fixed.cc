// explore suite: long_run_livelock, fixed twin.
// Two workers each count themselves in with a fetch_add; main spin-waits until both have,
// then does 250,000 atomic steps of work: longer than the default step limit, so schedules
// stop there as incomplete (a note says how many), never as a livelock.
// explore-budget: 20
// explore-expect-note: incomplete
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> arrived{0};
std::atomic<long> work{0};

void arrive() { arrived.fetch_add(1); }

int main() {
  std::thread a(arrive);
  std::thread b(arrive);
  while (arrived.load() != 2) {
  }
  for (int i = 0; i < 250000; ++i) work.fetch_add(1, std::memory_order_relaxed);
  a.join();
  b.join();
  assert(work.load() == 250000);
  return 0;
}
