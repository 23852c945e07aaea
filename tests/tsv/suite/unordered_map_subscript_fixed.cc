// snag-tsv-suite
// expect: clean
// why: the counters are bumped through find(), a read of the std::unordered_map; the two threads then modify different elements, which is allowed
#include <latch>
#include <string>
#include <thread>
#include <unordered_map>

std::unordered_map<std::string, int> hits;
std::latch start(2);

__attribute__((noinline)) void count_hit(const char* page) {
  start.arrive_and_wait();
  hits.find(page)->second += 1;
}

int main() {
  hits.reserve(64);
  hits.insert({"index", 0});
  hits.insert({"about", 0});
  std::thread a(count_hit, "index"), b(count_hit, "about");
  a.join();
  b.join();
  return 0;
}
