// snag-tsv-suite
// expect: violation
// object: std::set<int>
// why: the checker calls contains() on a std::set before acquiring the semaphore the inserting thread releases after its insert()
#include <semaphore>
#include <set>
#include <thread>

std::set<int> banned = {1, 2, 3};
std::binary_semaphore updated(0);
bool two_banned = false;

__attribute__((noinline)) void updater() {
  banned.insert(4);  // TSV:first
  updated.release();
}

__attribute__((noinline)) void checker() {
  two_banned = banned.contains(2);  // TSV:second
  updated.acquire();
}

int main() {
  std::thread u(updater), c(checker);
  u.join();
  c.join();
  return 0;
}
