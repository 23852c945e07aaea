// explore suite: observer_three, buggy twin.
// The two writers mark themselves as writing but do not exclude each other, and only a
// third thread, the monitor, checks the "one writer at a time" rule, so the failure needs
// both writers preempted inside their write (two preemptions) while the monitor looks.
// explore-budget: 5000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> writers{0};
std::atomic<int> value{0};

void writer(int v) {
  writers.fetch_add(1);
  value.store(v);
  writers.fetch_sub(1);
}

void monitor() {
  int w = writers.load();
  assert(w <= 1);  // BUG: assertion-failure
}

int main() {
  std::thread a(writer, 1);
  std::thread b(writer, 2);
  std::thread c(monitor);
  a.join();
  b.join();
  c.join();
  return 0;
}
