// snag-check-suite
// expect: clean
// why: each worker writes its own element per_worker[id]; adjacent ints of one std::vector are distinct memory locations
#include <thread>
#include <vector>

std::vector<int> per_worker(4);

void work(int id) {
  int found = 0;
  for (int i = id; i < 40; i += 2) found += i % 7 == 0;
  per_worker[id] = found;
}

int main() {
  std::thread a(work, 0);
  std::thread b(work, 1);
  a.join();
  b.join();
  return per_worker[0] + per_worker[1] == 6 ? 0 : 1;
}
