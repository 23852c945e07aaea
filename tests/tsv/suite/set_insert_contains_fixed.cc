// snag-tsv-suite
// expect: clean
// why: the checker calls contains() on the std::set only after acquiring the semaphore the inserting thread releases after its insert()
#include <semaphore>
#include <set>
#include <thread>

std::set<int> banned = {1, 2, 3};
std::binary_semaphore updated(0);
bool two_banned = false;

__attribute__((noinline)) void updater() {
  banned.insert(4);
  updated.release();
}

__attribute__((noinline)) void checker() {
  updated.acquire();
  two_banned = banned.contains(2);
}

int main() {
  std::thread u(updater), c(checker);
  u.join();
  c.join();
  return 0;
}
