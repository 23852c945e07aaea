// snag-tsv-suite
// expect: violation
// object: std::unordered_multiset<std::string>
// why: one thread insert()s into a std::unordered_multiset while another calls contains(), with no lock
#include <latch>
#include <string>
#include <thread>
#include <unordered_set>

std::unordered_multiset<std::string> tags;
std::latch start(2);
bool tagged_urgent = false;

__attribute__((noinline)) void tagger() {
  start.arrive_and_wait();
  tags.insert("urgent");  // TSV:first
}

__attribute__((noinline)) void filter() {
  start.arrive_and_wait();
  tagged_urgent = tags.contains("urgent");  // TSV:second
}

int main() {
  tags.reserve(64);
  tags.insert("new");
  std::thread t(tagger), f(filter);
  t.join();
  f.join();
  return 0;
}
