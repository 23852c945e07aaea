// The other half of counter_app: starts worker() and touches `hits` without
// waiting for it.
#include <thread>

extern int hits;
void worker();

int main() {
  std::thread t(worker);
  hits += STEP;  // races with worker.cc:6
  t.join();
  return hits;
}
