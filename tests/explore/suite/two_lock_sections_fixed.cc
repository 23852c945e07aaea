// explore suite: two_lock_sections, fixed twin.
// record() reads and writes the counter in one critical section.
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
    hits = seen + 1;
  }
}

int main() {
  std::thread a(record);
  std::thread b(record);
  a.join();
  b.join();
  assert(hits == 2);
  return 0;
}
