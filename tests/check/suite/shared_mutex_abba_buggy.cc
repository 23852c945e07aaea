// snag-check-suite
// expect: deadlock
// why: lookup() holds the routes reader lock and waits for the stats mutex, while record_and_prune() holds the stats mutex and waits for the routes writer lock
#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex routes_mutex;
std::mutex stats_mutex;
int routes = 4;
int hits = 0;

int lookup() {
  std::shared_lock<std::shared_mutex> read(routes_mutex);  // DEADLOCK
  std::lock_guard<std::mutex> stats(stats_mutex);  // DEADLOCK
  ++hits;
  return routes;
}

void record_and_prune() {
  std::lock_guard<std::mutex> stats(stats_mutex);  // DEADLOCK
  std::unique_lock<std::shared_mutex> write(routes_mutex);  // DEADLOCK
  if (hits > 100) routes = 0;
}

int main() {
  int r = 0;
  std::thread reader([&] { r = lookup(); });
  std::thread writer(record_and_prune);
  reader.join();
  writer.join();
  return r >= 0 ? 0 : 1;
}
