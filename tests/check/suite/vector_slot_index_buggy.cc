// snag-check-suite
// expect: race
// why: the per-worker slot index is computed as id / 2, so workers 0 and 1 both write element 0 of the shared std::vector
#include <thread>
#include <vector>

std::vector<int> per_worker(4);

void work(int id) {
  int found = 0;
  for (int i = id; i < 40; i += 2) found += i % 7 == 0;
  per_worker[id / 2] = found;  // RACE:first RACE:second
}

int main() {
  std::thread a(work, 0);
  std::thread b(work, 1);
  a.join();
  b.join();
  return per_worker[0] >= 0 ? 0 : 1;
}
