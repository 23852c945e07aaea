// explore suite: chase_lev_pop, buggy twin.
// The owner's pop() takes the last item without the compare-exchange on top that would
// arbitrate with a thief, so when the thief is preempted between reading that item and its
// own compare-exchange while the owner pops it, both process the same item.
// explore-budget: 5000
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kSize = 8;
constexpr int kItems = 3;

std::atomic<int> top{0};
std::atomic<int> bottom{0};
std::atomic<int> slots[kSize];
std::atomic<int> taken[kItems];

void push(int item) {  // owner only
  int b = bottom.load();
  slots[b % kSize].store(item);
  bottom.store(b + 1);
}

int pop() {  // owner only
  int b = bottom.load() - 1;
  bottom.store(b);
  int t = top.load();
  if (t > b) {
    bottom.store(b + 1);
    return -1;
  }
  int item = slots[b % kSize].load();
  return item;
}

int steal() {  // any thread
  int t = top.load();
  int b = bottom.load();
  if (t >= b)
    return -1;
  int item = slots[t % kSize].load();
  if (!top.compare_exchange_strong(t, t + 1))
    return -1;
  return item;
}

void process(int item) {
  int before = taken[item].fetch_add(1);
  assert(before == 0);  // BUG: assertion-failure
}

void thief() {
  for (int attempt = 0; attempt < 2; ++attempt) {
    int item = steal();
    if (item >= 0)
      process(item);
  }
}

int main() {
  for (int i = 0; i < kItems; ++i)
    push(i);
  std::thread t(thief);
  for (int item = pop(); item >= 0; item = pop())
    process(item);
  t.join();
  return 0;
}
