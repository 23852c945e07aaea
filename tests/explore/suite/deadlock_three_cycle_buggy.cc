// explore suite: deadlock_three_cycle, buggy twin.
// Stage i takes lock i and then lock (i+1) mod 3, so when all three stages hold their
// first lock at once (two preemptions) the three threads wait for each other in a cycle.
// explore-budget: 5000
#include <mutex>
#include <thread>

std::mutex locks[3];
int transfers[3];  // transfers[i] guarded by locks[i]

void stage(int i) {
  int next = (i + 1) % 3;
  std::lock_guard<std::mutex> first(locks[i]);      // BUG: deadlock
  std::lock_guard<std::mutex> second(locks[next]);  // BUG: deadlock
  ++transfers[i];
  ++transfers[next];
}

int main() {
  std::thread a(stage, 0);
  std::thread b(stage, 1);
  std::thread c(stage, 2);
  a.join();  // BUG: deadlock
  b.join();  // BUG: deadlock
  c.join();  // BUG: deadlock
  return 0;
}
