// snag-race-suite
// expect: clean
// why: readers hold the std::shared_mutex in shared mode, the writer holds it in exclusive mode
#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex rw;
int table[4] = {1, 2, 3, 4};
long sums[2];

__attribute__((noinline)) void reader(int id) {
  std::shared_lock<std::shared_mutex> lk(rw);
  sums[id] = table[0] + table[3];
}

__attribute__((noinline)) void writer() {
  std::unique_lock<std::shared_mutex> lk(rw);
  table[0] = 10;
}

int main() {
  std::thread r0(reader, 0), w(writer), r1(reader, 1);
  r0.join();
  w.join();
  r1.join();
  return 0;
}
