// snag-tsv-suite
// expect: clean
// why: the std::map's operator[] insertion and the find() are both made under the same mutex
#include <latch>
#include <map>
#include <mutex>
#include <thread>

std::map<int, int> stock = {{1, 10}, {2, 20}, {3, 30}};
std::mutex stock_mutex;
std::latch start(2);
bool have_two = false;

__attribute__((noinline)) void restock() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(stock_mutex);
  stock[4] = 40;
}

__attribute__((noinline)) void check() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(stock_mutex);
  have_two = stock.find(2) != stock.end();
}

int main() {
  std::thread w(restock), r(check);
  w.join();
  r.join();
  return 0;
}
