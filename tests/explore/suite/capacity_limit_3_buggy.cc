// explore suite: capacity_limit_3, buggy twin.
// A worker checks that a slot is free and takes it with a separate fetch_add, so when all
// three workers are admitted together (two inside and the third preempted between its
// check and its add, two or three preemptions) three workers occupy two slots; with only
// two workers the limit cannot be exceeded, so this needs three threads.
// explore-budget: 5000
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kSlots = 2;
std::atomic<int> active{0};

void worker() {
  if (active.load() < kSlots) {
    int now = active.fetch_add(1) + 1;
    assert(now <= kSlots);  // BUG: assertion-failure
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
