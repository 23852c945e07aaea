// explore suite: two_lock_sections, buggy twin.
// record() reads the counter in one critical section and writes it back in another, so a
// thread preempted between the two sections (at the second lock) loses the other thread's
// increment.
// explore-budget: 2000
#include <cassert>
#include <mutex>
#include <thread>

std::mutex m;
int hits = 0;  // guarded by m

void record() {
  int seen;
  {
    std::lock_guard<std::mutex> g(m);
    seen = hits;
  }
  {
    std::lock_guard<std::mutex> g(m);
    hits = seen + 1;
  }
}

int main() {
  std::thread a(record);
  std::thread b(record);
  a.join();
  b.join();
  assert(hits == 2);  // BUG: assertion-failure
  return 0;
}
