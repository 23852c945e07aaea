// snag-tsv-suite
// expect: violation
// object: std::map<int, int>
// why: one thread adds a key to a std::map with operator[] while another thread calls find() on a different key, with no lock
#include <latch>
#include <map>
#include <thread>

std::map<int, int> stock = {{1, 10}, {2, 20}, {3, 30}};
std::latch start(2);
bool have_two = false;

__attribute__((noinline)) void restock() {
  start.arrive_and_wait();
  stock[4] = 40;  // TSV:first
}

__attribute__((noinline)) void check() {
  start.arrive_and_wait();
  have_two = stock.find(2) != stock.end();  // TSV:second
}

int main() {
  std::thread w(restock), r(check);
  w.join();
  r.join();
  return 0;
}
