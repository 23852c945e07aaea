// explore suite: capacity_limit_3, fixed twin.
// A worker takes a slot with a compare-exchange loop that only succeeds while a slot is
// free.
// explore-budget: 5000
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kSlots = 2;
std::atomic<int> active{0};

void worker() {
  int seen = active.load();
  while (seen < kSlots && !active.compare_exchange_strong(seen, seen + 1)) {
  }
  if (seen < kSlots) {
    int now = seen + 1;
    assert(now <= kSlots);
    active.fetch_sub(1);
  }
}

int main() {
  std::thread a(worker);
  std::thread b(worker);
  std::thread c(worker);
  a.join();
  b.join();
  c.join();
  return 0;
}
