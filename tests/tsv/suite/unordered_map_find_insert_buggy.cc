// snag-tsv-suite
// expect: violation
// object: std::unordered_map<std::string, int>
// why: the TSVD paper's Dictionary bug: one thread insert()s a new key into a std::unordered_map while another calls find() on a different key, with no lock
#include <latch>
#include <string>
#include <thread>
#include <unordered_map>

std::unordered_map<std::string, int> cache;
std::latch start(2);
int alpha = 0;

__attribute__((noinline)) void fill() {
  start.arrive_and_wait();
  cache.insert({"gamma", 3});  // TSV:first
}

__attribute__((noinline)) void lookup() {
  start.arrive_and_wait();
  auto it = cache.find("alpha");  // TSV:second
  alpha = it->second;
}

int main() {
  cache.reserve(64);
  cache.insert({"alpha", 1});
  cache.insert({"beta", 2});
  std::thread w(fill), r(lookup);
  w.join();
  r.join();
  return 0;
}
