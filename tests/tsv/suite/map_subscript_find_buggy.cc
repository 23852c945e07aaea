// snag-tsv-suite
// expect: violation
// object: std::map<int, int>
// why: a "lookup" with std::map::operator[] is a write (it inserts a missing key) and runs while another thread calls find(), with no lock
#include <latch>
#include <map>
#include <thread>

std::map<int, int> prices = {{1, 10}, {2, 20}, {3, 30}};
std::latch start(2);
int price_two = 0;
int price_three = 0;

__attribute__((noinline)) void quote_two() {
  start.arrive_and_wait();
  price_two = prices[2];  // TSV:first
}

__attribute__((noinline)) void quote_three() {
  start.arrive_and_wait();
  auto it = prices.find(3);  // TSV:second
  price_three = it->second;
}

int main() {
  std::thread a(quote_two), b(quote_three);
  a.join();
  b.join();
  return 0;
}
