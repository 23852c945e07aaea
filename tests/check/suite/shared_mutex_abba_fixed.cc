// snag-check-suite
// expect: clean
// why: both functions take the routes lock (reader or writer) before the stats mutex, so there is one lock order
#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex routes_mutex;
std::mutex stats_mutex;
int routes = 4;
int hits = 0;

int lookup() {
  std::shared_lock<std::shared_mutex> read(routes_mutex);
  std::lock_guard<std::mutex> stats(stats_mutex);
  ++hits;
  return routes;
}

void record_and_prune() {
  std::unique_lock<std::shared_mutex> write(routes_mutex);
  std::lock_guard<std::mutex> stats(stats_mutex);
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
