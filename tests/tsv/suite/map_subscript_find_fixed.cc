// snag-tsv-suite
// expect: clean
// why: the lookup uses std::map::at() instead of operator[], so both threads only read the map (at() and find() may run concurrently)
#include <latch>
#include <map>
#include <thread>

std::map<int, int> prices = {{1, 10}, {2, 20}, {3, 30}};
std::latch start(2);
int price_two = 0;
int price_three = 0;

__attribute__((noinline)) void quote_two() {
  start.arrive_and_wait();
  price_two = prices.at(2);
}

__attribute__((noinline)) void quote_three() {
  start.arrive_and_wait();
  auto it = prices.find(3);
  price_three = it->second;
}

int main() {
  std::thread a(quote_two), b(quote_three);
  a.join();
  b.join();
  return 0;
}
