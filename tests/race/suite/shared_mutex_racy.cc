// snag-race-suite
// expect: racy
// why: the writer takes the std::shared_mutex in SHARED mode, so it is not excluded from (or ordered with) the readers
#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex rw;
int table[4] = {1, 2, 3, 4};
long sums[2];

__attribute__((noinline)) void reader(int id) {
  std::shared_lock<std::shared_mutex> lk(rw);
  sums[id] = table[0] + table[3];  // RACE:second
}

__attribute__((noinline)) void writer() {
  std::shared_lock<std::shared_mutex> lk(rw);
  table[0] = 10;  // RACE:first
}

int main() {
  std::thread r0(reader, 0), w(writer), r1(reader, 1);
  r0.join();
  w.join();
  r1.join();
  return 0;
}
