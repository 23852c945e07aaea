// snag-tsv-suite
// expect: clean
// why: main calls count() on the std::unordered_set only after joining the worker that insert()s into it
#include <thread>
#include <unordered_set>

std::unordered_set<int> seen_ids;
bool seen_one = false;

__attribute__((noinline)) void remember() {
  seen_ids.insert(7);
}

int main() {
  seen_ids.reserve(64);
  seen_ids.insert(1);
  std::thread worker(remember);
  worker.join();
  seen_one = seen_ids.count(1) != 0;
  return 0;
}
