// snag-tsv-suite
// expect: violation
// object: std::unordered_map<std::string, int>
// why: two threads bump counters of different, existing keys with std::unordered_map::operator[], which is a write (it may insert) even when the key exists
#include <latch>
#include <string>
#include <thread>
#include <unordered_map>

std::unordered_map<std::string, int> hits;
std::latch start(2);

__attribute__((noinline)) void count_hit(const char* page) {
  start.arrive_and_wait();
  hits[page] += 1;  // TSV:first TSV:second
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
