// snag-tsv-suite
// expect: violation
// object: std::unordered_set<int>
// why: main calls count() on a std::unordered_set while the worker it started insert()s into it; main joins only afterwards
#include <thread>
#include <unordered_set>

std::unordered_set<int> seen_ids;
bool seen_one = false;

__attribute__((noinline)) void remember() {
  seen_ids.insert(7);  // TSV:first
}

int main() {
  seen_ids.reserve(64);
  seen_ids.insert(1);
  std::thread worker(remember);
  seen_one = seen_ids.count(1) != 0;  // TSV:second
  worker.join();
  return 0;
}
